import type { z } from 'zod';
import type { ChatMessage, LlmProvider } from '../../llm/index.js';

/** How a stage calls its model: through a shared concurrency limit, optionally cancellable. */
export interface CallOptions {
  /** Runs `fn` under the run's concurrency limit (identity when absent). */
  limit?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
  /** Sent as the request seed; repeats use different seeds so a response cache does not merge them. */
  seed?: number;
  /** Receives every call's cost and tokens (for the run's accounting). */
  onCall?: (meta: { costUsd: number | null; inputTokens: number; outputTokens: number }) => void;
}

export type CallResult<T> = { ok: true; value: T; raw: string } | { ok: false; reason: string; raw: string };

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
    temperature: 0,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  const result = await run(() => llm.generateObject(request));
  options.onCall?.({
    costUsd: result.costUsd,
    inputTokens: result.usage?.inputTokens ?? 0,
    outputTokens: result.usage?.outputTokens ?? 0,
  });
  return result.ok
    ? { ok: true, value: result.value, raw: result.raw }
    : { ok: false, reason: result.reason, raw: result.raw };
}
