/**
 * One model call of a nugget step. Its tokens and cost reach progress through the runtime's call
 * listener (`LlmRuntime.onCall`), not through the step. A call that fails
 * (network, budget, cache-only miss) is `failed`: the unit stays pending and a rerun retries it. A
 * reply that arrives but cannot be used (malformed, refused) is the step's business: it applies
 * the released code's fallback and records the raw reply.
 */
import type { ChatMessage, LlmProvider } from '../../llm/index.js';

export type CallOutcome = { ok: true; text: string } | { ok: false; reason: string };

/** Deterministic decoding for every step (temperature 0), so cached and fresh runs agree. */
export async function callText(
  llm: LlmProvider,
  messages: ChatMessage[],
  maxTokens?: number,
): Promise<CallOutcome> {
  const r = await llm.generate({ messages, temperature: 0, ...(maxTokens ? { maxTokens } : {}) });
  return r.ok ? { ok: true, text: r.text } : { ok: false, reason: r.reason };
}

/** A reply that declines the task instead of answering it (checked only when it is not the expected JSON). */
export function looksRefused(text: string): boolean {
  return /\b(I can(?:no|')t|I(?: am|'m) (?:not able|unable)|I won't|as an AI|I must decline|cannot (?:help|assist|comply))\b/i.test(
    text,
  );
}
