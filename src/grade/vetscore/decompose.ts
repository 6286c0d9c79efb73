import type { LlmProvider } from '../../llm/index.js';
import { type CallOptions, callModel } from './llm-call.js';
import { DecompositionSchema, decomposePrompt } from './prompts/index.js';
import type { Segment } from './segment.js';

export type DecompositionOutcome =
  | { ok: true; claims: string[] }
  | { ok: false; reason: string; raw: string };

/**
 * Stage 2 (METHODS §3.2): the segment's atomic claims, the decomposer seeing the answer back to the
 * last header. Blank and duplicate claims are dropped; an empty list is a valid answer (a segment
 * without factual content). A failed call fails the segment.
 */
export async function decomposeSegment(
  llm: LlmProvider,
  input: { question: string; segment: Segment },
  options: CallOptions = {},
): Promise<DecompositionOutcome> {
  const messages = decomposePrompt({
    question: input.question,
    context: input.segment.context,
    segment: input.segment.text,
  });
  const result = await callModel(llm, messages, DecompositionSchema, 'claims', options);
  if (!result.ok) return { ok: false, reason: `decomposition failed: ${result.reason}`, raw: result.raw };
  const claims = [...new Set(result.value.claims.map((c) => c.trim()).filter((c) => c !== ''))];
  return { ok: true, claims };
}
