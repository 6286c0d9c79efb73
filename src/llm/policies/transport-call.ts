import { costOf, type Price } from '../prices.js';
import type { GenerateRequest } from '../provider.js';
import { timed } from '../retry.js';
import type { Transport, WireRequest } from '../transport.js';
import type { ModelCall, ModelOutcome } from './call-stack.js';

/**
 * The base of a local stack: one attempt on the transport under a timeout (the request's own
 * timeoutMs, else `timeoutMs`), priced with `price`. A failure keeps the status and Retry-After
 * for the limiter and retry policies above it.
 */
export function transportCall(transport: Transport, price: Price | null, timeoutMs: number): ModelCall {
  return async (request, schema) => {
    const started = performance.now();
    const wire: WireRequest = {
      messages: request.messages,
      ...settingsOf(request),
      ...(schema ? { schema } : {}),
    };
    const reply = await timed(
      (signal) => transport.send(wire, signal),
      request.timeoutMs ?? timeoutMs,
      request.signal,
    );
    const meta = { retries: 0, cached: false, latencyMs: performance.now() - started };
    if (reply.ok) {
      return { ok: true, text: reply.text, usage: reply.usage, costUsd: costOf(reply.usage, price), ...meta };
    }
    const failure: ModelOutcome = {
      ok: false,
      reason: reply.reason,
      retryable: reply.retryable,
      usage: null,
      costUsd: null,
      ...meta,
    };
    if (reply.raw !== undefined) failure.raw = reply.raw;
    if (reply.status !== undefined) failure.status = reply.status;
    if (reply.retryAfterMs !== undefined) failure.retryAfterMs = reply.retryAfterMs;
    return failure;
  };
}

function settingsOf(r: GenerateRequest): { temperature?: number; maxTokens?: number; seed?: number } {
  const out: { temperature?: number; maxTokens?: number; seed?: number } = {};
  if (r.temperature !== undefined) out.temperature = r.temperature;
  if (r.maxTokens !== undefined) out.maxTokens = r.maxTokens;
  if (r.seed !== undefined) out.seed = r.seed;
  return out;
}
