import { type Budget, projectCost } from './budget.js';
import { type CacheMode, cacheKey, type ReplyCache } from './cache.js';
import { AdaptiveLimiter } from './limiter.js';
import { costOf, type Price, type PriceTable, priceFor } from './prices.js';
import type { GenerateRequest, GenerateResult, TokenUsage } from './provider.js';
import { type RetryPolicy, withRetries } from './retry.js';
import type { Transport, WireReply, WireSchema } from './transport.js';

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

/** The event a finished call reports (the same for a local call and one made on a queue worker). */
export function callEventOf(providerId: string, result: GenerateResult): CallEvent {
  const event: CallEvent = {
    providerId,
    ok: result.ok,
    cached: result.cached,
    usage: result.usage,
    costUsd: result.costUsd,
    latencyMs: result.latencyMs,
    retries: result.retries,
  };
  if (!result.ok) event.reason = result.reason;
  return event;
}

/** The policies every provider gets. All optional; defaults in DEFAULT_POLICY. */
export interface CallPolicyOptions {
  cache?: ReplyCache | null;
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
    // A shared limiter is used unless this transport can serve fewer calls at once (one in-process model).
    const shared = options.limiter;
    this.limiter =
      shared && (transport.maxConcurrency === undefined || shared.max <= transport.maxConcurrency)
        ? shared
        : new AdaptiveLimiter({ max: concurrency });
    this.price = priceFor(providerId, transport.model, options.prices);
  }

  async call(request: GenerateRequest, schema: WireSchema | undefined): Promise<GenerateResult> {
    const started = performance.now();
    request.signal?.throwIfAborted();
    const mode = this.options.cacheMode ?? DEFAULT_POLICY.cacheMode;
    const cache = mode === 'no-cache' ? null : (this.options.cache ?? null);
    const key = cache ? this.key(request, schema) : '';
    const hit = cache ? await cache.get(key) : undefined;
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
    // A priced reply without usage fields is charged its projection, so the cap still holds.
    if (hold) budget?.settle(hold, costUsd ?? (reply.ok && this.price ? hold.projectedUsd : null));
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

  /** The retry policy this runner applies (shared with embedders built on the same options). */
  get retryPolicy(): RetryPolicy {
    return retryPolicyOf(this.options, this.limiter);
  }

  private attempts(
    request: GenerateRequest,
    schema: WireSchema | undefined,
  ): Promise<{ reply: WireReply; retries: number }> {
    const policy = this.retryPolicy;
    if (request.timeoutMs !== undefined) policy.timeoutMs = request.timeoutMs;
    const wire = { messages: request.messages, ...pick(request), ...(schema ? { schema } : {}) };
    return withRetries((signal) => this.transport.send(wire, signal), policy, request.signal);
  }

  private finish(result: Unfinished, started: number): GenerateResult {
    const full = { ...result, latencyMs: performance.now() - started } as GenerateResult;
    this.options.onCall?.(callEventOf(this.providerId, full));
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

/** The retry policy for a set of call options (defaults from DEFAULT_POLICY). */
export function retryPolicyOf(options: CallPolicyOptions, limiter: AdaptiveLimiter): RetryPolicy {
  return {
    limiter,
    maxAttempts: options.maxAttempts ?? DEFAULT_POLICY.maxAttempts,
    timeoutMs: options.timeoutMs ?? DEFAULT_POLICY.timeoutMs,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_POLICY.retryBaseMs,
    retryMaxMs: options.retryMaxMs ?? DEFAULT_POLICY.retryMaxMs,
    retryDelayScale: options.retryDelayScale ?? DEFAULT_POLICY.retryDelayScale,
    random: options.random ?? Math.random,
  };
}
