import { isCitegeistError } from '../core/index.js';
import type { AdaptiveLimiter } from './limiter.js';
import type { WireFailure } from './transport.js';

/** How attempts are spaced and bounded (the back-off part of a RetryPolicy). */
export interface BackoffPolicy {
  /** Attempts per call, first included. */
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /**
   * The longest a server's Retry-After is honoured (default RETRY_AFTER_CAP_MS): a server asking
   * for an hour would otherwise stall the run; past the cap the usual back-off applies.
   */
  retryAfterMaxMs?: number;
  /**
   * When true, a server's Retry-After replaces the back-off even when shorter (the OpenAlex client:
   * a polite client waits as long as it is told); else it only lengthens it (LLM APIs).
   */
  retryAfterReplaces?: boolean;
  retryDelayScale: number;
  random: () => number;
}

/** How attempts are timed out, spaced and bounded. */
export interface RetryPolicy extends BackoffPolicy {
  limiter: AdaptiveLimiter;
  timeoutMs: number;
}

/** The default cap on a server's Retry-After (60 s). */
export const RETRY_AFTER_CAP_MS = 60_000;

/** A failed attempt as the retry loop reads it. */
export interface RetryableFailure {
  ok: false;
  reason: string;
  /** Only a retryable failure is tried again. */
  retryable?: boolean;
  /** The server's Retry-After, in ms. */
  retryAfterMs?: number;
}

/**
 * The one retry loop (chat calls, embedding batches and the OpenAlex client use it): a retryable
 * failure is retried after exponential back-off with equal jitter — or the server's Retry-After
 * (capped) when longer — until `maxAttempts`. Rejects only when `signal` aborts (or `attempt`
 * rejects). `wait` is injectable so tests wait on no real timer.
 */
export async function retryLoop<T extends { ok: true } | RetryableFailure>(
  attempt: () => Promise<T>,
  policy: BackoffPolicy,
  options: RetryLoopOptions = {},
): Promise<{ reply: T; retries: number }> {
  const wait = options.wait ?? sleep;
  let last: (T & RetryableFailure) | undefined;
  const maxAttempts = Math.max(1, policy.maxAttempts);
  for (let n = 1; n <= maxAttempts; n++) {
    const reply = await attempt();
    if (reply.ok || !reply.retryable) return { reply, retries: n - 1 };
    const failure = reply as T & RetryableFailure;
    last = failure;
    if (n < maxAttempts) await wait(backoff(policy, n, failure.retryAfterMs), options.signal);
  }
  const failure = last as T & RetryableFailure;
  const gaveUp = options.gaveUp ?? ((reason, n) => `${reason} (gave up after ${n} attempts)`);
  return { reply: { ...failure, reason: gaveUp(failure.reason, maxAttempts) }, retries: maxAttempts - 1 };
}

export interface RetryLoopOptions {
  /** Cancels the waits between attempts. */
  signal?: AbortSignal | undefined;
  /** How to wait between attempts (default `sleep`; tests pass one that records and returns). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The reason of a call that used every attempt, from the last attempt's reason. */
  gaveUp?: (reason: string, attempts: number) => string;
}

/**
 * Retries `attempt` under a RetryPolicy: each attempt waits for a limiter slot, runs under a
 * timeout that is told apart from the caller's cancellation, and reports overload to the limiter
 * (429, 503, 529 shrink it). Rejects only when `signal` aborts or on a configuration error
 * (CitegeistError).
 */
export function withRetries<R extends { ok: true }>(
  attempt: (signal: AbortSignal) => Promise<R | WireFailure>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<{ reply: R | WireFailure; retries: number }> {
  return retryLoop<R | WireFailure>(
    async () => {
      const release = await policy.limiter.acquire(signal);
      let reply: R | WireFailure;
      try {
        reply = await timed(attempt, policy.timeoutMs, signal);
      } finally {
        release();
      }
      noteOutcome(policy.limiter, reply);
      return reply;
    },
    policy,
    { signal },
  );
}

/** Tells the limiter how an attempt went: a success may widen it, an overload signal shrinks it. */
export function noteOutcome(
  limiter: AdaptiveLimiter,
  reply: { ok: true } | { ok: false; retryable?: boolean | undefined; status?: number | undefined },
): void {
  if (reply.ok) limiter.onSuccess();
  else if (reply.retryable && (reply.status === 429 || reply.status === 503 || reply.status === 529))
    limiter.onThrottle();
}

/**
 * Runs one attempt under a timeout. A timeout or a thrown error becomes a failure (the timeout
 * retryable); the caller's cancellation and configuration errors (CitegeistError) reject.
 */
export async function timed<R>(
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

/**
 * Exponential back-off with equal jitter; a server's retry-after wins when longer (or always, with
 * `retryAfterReplaces`), but never past `retryAfterMaxMs`.
 */
export function backoff(policy: BackoffPolicy, attempt: number, retryAfterMs?: number): number {
  const exp = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + (policy.random() * exp) / 2;
  const after =
    retryAfterMs === undefined
      ? undefined
      : Math.min(retryAfterMs, policy.retryAfterMaxMs ?? RETRY_AFTER_CAP_MS);
  const wait = after === undefined ? jittered : policy.retryAfterReplaces ? after : Math.max(after, jittered);
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
