import { isCitegeistError } from '../core/index.js';
import { type Budget, projectCost } from './budget.js';
import { type CacheMode, cacheKey, type ResponseCache } from './cache.js';
import { AdaptiveLimiter } from './limiter.js';
import { costOf, type Price, type PriceTable, priceFor } from './prices.js';
import type { GenerateRequest, GenerateResult, TokenUsage } from './provider.js';
import type { Transport, WireFailure, WireReply, WireSchema } from './transport.js';

/** What every call reports to an observer (progress bars, run logs). */
export interface CallEvent {
  providerId: string;
  ok: boolean;
  cached: boolean;
  usage: TokenUsage | null;
  costUsd: number | null;
  latencyMs: number;
  retries: number;
  reason?: string;
}

/** The policies every provider gets. All optional; defaults in DEFAULT_POLICY. */
export interface CallPolicyOptions {
  cache?: ResponseCache | null;
  cacheMode?: CacheMode;
  /** A limiter shared by several providers; else one is made with `concurrency`. */
  limiter?: AdaptiveLimiter;
  concurrency?: number;
  budget?: Budget | null;
  prices?: PriceTable;
  /** Per-attempt timeout (default 120 s); a request's own timeoutMs wins. */
  timeoutMs?: number;
  /** Attempts per call, first included (default 5). */
  maxAttempts?: number;
  /** First back-off delay (default 1 s), doubled per retry up to retryMaxMs (default 60 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Multiplies every delay, retry-after included (tests and benchmarks scale them down). */
  retryDelayScale?: number;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Output tokens assumed for budget projection when a request sets no maxTokens. */
  expectedOutputTokens?: number;
  onCall?: (event: CallEvent) => void;
}

export const DEFAULT_POLICY = {
  cacheMode: 'normal' as CacheMode,
  concurrency: 4,
  timeoutMs: 120_000,
  maxAttempts: 5,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  retryDelayScale: 1,
};

/**
 * The one place where calls are cached, budgeted, limited, timed out and retried. A transport
 * makes one attempt; this runs the attempts. Never throws on a failed call: it returns `ok: false`
 * with the reason; it rejects only when the caller's signal aborts.
 */
export class CallRunner {
  readonly limiter: AdaptiveLimiter;
  private readonly price: Price | null;

  constructor(
    readonly providerId: string,
    private readonly transport: Transport,
    private readonly options: CallPolicyOptions = {},
  ) {
    const concurrency = Math.min(
      options.concurrency ?? DEFAULT_POLICY.concurrency,
      transport.maxConcurrency ?? Number.POSITIVE_INFINITY,
    );
    this.limiter = options.limiter ?? new AdaptiveLimiter({ max: concurrency });
    this.price = priceFor(providerId, transport.model, options.prices);
  }

  async call(request: GenerateRequest, schema: WireSchema | undefined): Promise<GenerateResult> {
    const started = performance.now();
    request.signal?.throwIfAborted();
    const mode = this.options.cacheMode ?? DEFAULT_POLICY.cacheMode;
    const cache = mode === 'no-cache' ? null : (this.options.cache ?? null);
    const key = cache ? this.key(request, schema) : '';
    const hit = cache?.get(key);
    if (hit) {
      const costUsd = this.price && hit.usage ? 0 : null;
      return this.finish(
        { ok: true, text: hit.text, usage: hit.usage, costUsd, retries: 0, cached: true },
        started,
      );
    }
    if (mode === 'cache-only') {
      const reason = this.options.cache
        ? 'cache miss in cache-only mode (no stored reply for this request)'
        : 'cache-only mode but no response cache is configured';
      return this.finish(
        { ok: false, reason, usage: null, costUsd: null, retries: 0, cached: false },
        started,
      );
    }
    const budget = this.options.budget ?? null;
    const hold = budget?.reserve(projectCost(request, this.price, this.options.expectedOutputTokens));
    if (hold === null) {
      const reason = `budget exceeded: $${budget?.spentUsd.toFixed(4)} spent of $${budget?.limitUsd}; this call would pass it`;
      return this.finish(
        { ok: false, reason, usage: null, costUsd: null, retries: 0, cached: false },
        started,
      );
    }
    const { reply, retries } = await this.attempts(request, schema).catch((error: unknown) => {
      if (hold) budget?.settle(hold, null);
      throw error;
    });
    const costUsd = reply.ok ? costOf(reply.usage, this.price) : null;
    if (hold) budget?.settle(hold, costUsd);
    if (!reply.ok) {
      const failure: Unfinished = {
        ok: false,
        reason: reply.reason,
        retryable: reply.retryable,
        usage: null,
        costUsd: null,
        retries,
        cached: false,
      };
      if (reply.raw !== undefined) failure.raw = reply.raw;
      return this.finish(failure, started);
    }
    cache?.set(key, this.transport.model, { text: reply.text, usage: reply.usage });
    return this.finish(
      { ok: true, text: reply.text, usage: reply.usage, costUsd, retries, cached: false },
      started,
    );
  }

  private key(request: GenerateRequest, schema: WireSchema | undefined): string {
    return cacheKey({
      kind: this.transport.kind,
      model: this.transport.model,
      baseUrl: this.transport.baseUrl,
      messages: request.messages,
      schema: schema?.jsonSchema,
      temperature: request.temperature,
      seed: request.seed,
      maxTokens: request.maxTokens,
    });
  }

  /** Up to maxAttempts attempts with adaptive back-off; the last failure is returned. */
  private async attempts(
    request: GenerateRequest,
    schema: WireSchema | undefined,
  ): Promise<{ reply: WireReply; retries: number }> {
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? DEFAULT_POLICY.maxAttempts);
    let last: WireFailure | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const release = await this.limiter.acquire(request.signal);
      let reply: WireReply;
      try {
        reply = await this.attempt(request, schema);
      } finally {
        release();
      }
      if (reply.ok) {
        this.limiter.onSuccess();
        return { reply, retries: attempt - 1 };
      }
      last = reply;
      if (!reply.retryable) return { reply, retries: attempt - 1 };
      if (reply.status === undefined || reply.status === 429 || reply.status >= 500)
        this.limiter.onThrottle();
      if (attempt < maxAttempts) await sleep(this.delay(attempt, reply.retryAfterMs), request.signal);
    }
    const failure = last as WireFailure;
    return {
      reply: { ...failure, reason: `${failure.reason} (gave up after ${maxAttempts} attempts)` },
      retries: maxAttempts - 1,
    };
  }

  /** One attempt under a timeout that is told apart from the caller's cancellation. */
  private async attempt(request: GenerateRequest, schema: WireSchema | undefined): Promise<WireReply> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_POLICY.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    const onAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const wire = { messages: request.messages, ...pick(request), ...(schema ? { schema } : {}) };
      return await this.transport.send(wire, controller.signal);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      // A configuration error (missing optional package, missing model file) stops the run.
      if (isCitegeistError(error)) throw error;
      if (controller.signal.aborted) {
        return { ok: false, reason: `timed out after ${timeoutMs} ms`, retryable: true };
      }
      return { ok: false, reason: `transport error: ${(error as Error).message}`, retryable: false };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Exponential back-off with equal jitter; a server's retry-after wins when longer. */
  private delay(attempt: number, retryAfterMs: number | undefined): number {
    const base = this.options.retryBaseMs ?? DEFAULT_POLICY.retryBaseMs;
    const cap = this.options.retryMaxMs ?? DEFAULT_POLICY.retryMaxMs;
    const random = this.options.random ?? Math.random;
    const backoff = Math.min(cap, base * 2 ** (attempt - 1));
    const jittered = backoff / 2 + (random() * backoff) / 2;
    const wait = retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
    return wait * (this.options.retryDelayScale ?? DEFAULT_POLICY.retryDelayScale);
  }

  private finish(result: Unfinished, started: number): GenerateResult {
    const full = { ...result, latencyMs: performance.now() - started } as GenerateResult;
    const event: CallEvent = {
      providerId: this.providerId,
      ok: full.ok,
      cached: full.cached,
      usage: full.usage,
      costUsd: full.costUsd,
      latencyMs: full.latencyMs,
      retries: full.retries,
    };
    if (!full.ok) event.reason = full.reason;
    this.options.onCall?.(event);
    return full;
  }
}

/** A result before its latency is stamped. */
type Unfinished = GenerateResult extends infer R ? (R extends unknown ? Omit<R, 'latencyMs'> : never) : never;

function pick(r: GenerateRequest): { temperature?: number; maxTokens?: number; seed?: number } {
  const out: { temperature?: number; maxTokens?: number; seed?: number } = {};
  if (r.temperature !== undefined) out.temperature = r.temperature;
  if (r.maxTokens !== undefined) out.maxTokens = r.maxTokens;
  if (r.seed !== undefined) out.seed = r.seed;
  return out;
}

/** Sleeps `ms`, rejecting early with the signal's reason when it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
