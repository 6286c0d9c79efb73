import { isCitegeistError } from '../core/index.js';
import type { AdaptiveLimiter } from './limiter.js';
import type { WireFailure } from './transport.js';

/** How attempts are timed out, spaced and bounded. */
export interface RetryPolicy {
  limiter: AdaptiveLimiter;
  /** Attempts per call, first included. */
  maxAttempts: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  retryDelayScale: number;
  random: () => number;
}

/**
 * The one retry loop (chat calls and embedding batches both use it): each attempt waits for a
 * limiter slot, runs under a timeout that is told apart from the caller's cancellation, and a
 * retryable failure is retried after exponential back-off with equal jitter — or the server's
 * retry-after when longer. Overload signals (429, 503, 529) shrink the limiter. Rejects only when
 * `signal` aborts or on a configuration error (CitegeistError).
 */
export async function withRetries<R extends { ok: true }>(
  attempt: (signal: AbortSignal) => Promise<R | WireFailure>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<{ reply: R | WireFailure; retries: number }> {
  let last: WireFailure | undefined;
  const maxAttempts = Math.max(1, policy.maxAttempts);
  for (let n = 1; n <= maxAttempts; n++) {
    const release = await policy.limiter.acquire(signal);
    let reply: R | WireFailure;
    try {
      reply = await timed(attempt, policy.timeoutMs, signal);
    } finally {
      release();
    }
    if (reply.ok) {
      policy.limiter.onSuccess();
      return { reply, retries: n - 1 };
    }
    last = reply;
    if (!reply.retryable) return { reply, retries: n - 1 };
    if (reply.status === 429 || reply.status === 503 || reply.status === 529) policy.limiter.onThrottle();
    if (n < maxAttempts) await sleep(backoff(policy, n, reply.retryAfterMs), signal);
  }
  const failure = last as WireFailure;
  return {
    reply: { ...failure, reason: `${failure.reason} (gave up after ${maxAttempts} attempts)` },
    retries: maxAttempts - 1,
  };
}

async function timed<R>(
  attempt: (signal: AbortSignal) => Promise<R | WireFailure>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<R | WireFailure> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await attempt(controller.signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    // A configuration error (missing optional package, missing model file) stops the run.
    if (isCitegeistError(error)) throw error;
    if (controller.signal.aborted)
      return { ok: false, reason: `timed out after ${timeoutMs} ms`, retryable: true };
    return { ok: false, reason: `transport error: ${(error as Error).message}`, retryable: false };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Exponential back-off with equal jitter; a server's retry-after wins when longer. */
export function backoff(
  policy: Omit<RetryPolicy, 'limiter'>,
  attempt: number,
  retryAfterMs?: number,
): number {
  const exp = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + (policy.random() * exp) / 2;
  const wait = retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
  return wait * policy.retryDelayScale;
}

/** Sleeps `ms`, rejecting early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
