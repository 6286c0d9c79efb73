import type { GenerateRequest, GenerateResult } from '../provider.js';
import type { WireSchema } from '../transport.js';

/**
 * What one model call returns inside the stack: a GenerateResult whose failure may still carry the
 * HTTP status and Retry-After the limiter and the retry policy read (the retry policy strips them).
 */
export type ModelOutcome =
  | Extract<GenerateResult, { ok: true }>
  | (Extract<GenerateResult, { ok: false }> & { status?: number; retryAfterMs?: number });

/** One call to a model, as every policy sees it (vercel/ai's `doGenerate`). */
export type ModelCall = (request: GenerateRequest, schema: WireSchema | undefined) => Promise<ModelOutcome>;

/**
 * A policy wraps the next call and returns a call of the same shape (vercel/ai's middleware
 * `wrapGenerate`): it may answer itself (a cache hit, a refused budget), call `next` once (a
 * limiter slot) or several times (retries), and look at or change the outcome.
 */
export type CallPolicy = (next: ModelCall) => ModelCall;

/**
 * Stacks policies over a base call: the first policy is the outermost (it sees the call first and
 * the outcome last). A call whose signal has already aborted rejects before any policy runs.
 */
export function composeCall(base: ModelCall, policies: readonly CallPolicy[]): ModelCall {
  const call = policies.reduceRight<ModelCall>((next, policy) => policy(next), base);
  return async (request, schema) => {
    request.signal?.throwIfAborted();
    return call(request, schema);
  };
}
