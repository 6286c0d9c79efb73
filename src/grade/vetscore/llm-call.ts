import type { z } from 'zod';
import type { ChatMessage, LlmProvider, TokenUsage } from '../../llm/index.js';

/** How a stage calls its model: through a shared concurrency limit, optionally cancellable. */
export interface CallOptions {
  /** Runs `fn` under the run's concurrency limit (identity when absent). */
  limit?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
  /** Sent as the request seed; repeats use different seeds so a response cache does not merge them. */
  seed?: number;
  /**
   * Receives every call's usage as the provider reported it (null when the server reported none;
   * summed over schema-repair turns), its cost and whether it came from the response cache.
   */
  onCall?: (meta: { ok: boolean; usage: TokenUsage | null; costUsd: number | null; cached: boolean }) => void;
}

export type CallResult<T> = { ok: true; value: T; raw: string } | { ok: false; reason: string; raw: string };

/** The temperature of every judge call made through `callModel` (stated in manifests of repeated judgings). */
export const JUDGE_CALL_TEMPERATURE = 0;

/** One structured call; never throws on model output (a bad reply is `ok: false`). */
export async function callModel<T>(
  llm: LlmProvider,
  messages: ChatMessage[],
  schema: z.ZodType<T>,
  schemaName: string,
  options: CallOptions,
): Promise<CallResult<T>> {
  const run = options.limit ?? (<R>(fn: () => Promise<R>) => fn());
  const request = {
    messages,
    schema,
    schemaName,
    temperature: JUDGE_CALL_TEMPERATURE,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  const result = await run(() => llm.generateObject(request));
  options.onCall?.({ ok: result.ok, usage: result.usage, costUsd: result.costUsd, cached: result.cached });
  return result.ok
    ? { ok: true, value: result.value, raw: result.raw }
    : { ok: false, reason: result.reason, raw: result.raw };
}
