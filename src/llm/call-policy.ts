import type { Budget } from './budget.js';
import { type CacheMode, cacheKey, type ReplyCache } from './cache.js';
import type { CallEvent } from './call-event.js';
import { AdaptiveLimiter } from './limiter.js';
import { composeCall, type ModelCall } from './policies/call-stack.js';
import { policyStack } from './policies/policy-stack.js';
import { transportCall } from './policies/transport-call.js';
import { type PriceTable, priceFor } from './prices.js';
import type { GenerateRequest } from './provider.js';
import { RETRY_AFTER_CAP_MS, type RetryPolicy } from './retry.js';
import type { Transport, WireSchema } from './transport.js';

export { type CallEvent, callEventOf } from './call-event.js';

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
  /** The longest a server's Retry-After is honoured (default 60 s); past it, the usual back-off. */
  retryAfterMaxMs?: number;
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
  retryAfterMaxMs: RETRY_AFTER_CAP_MS,
  retryDelayScale: 1,
};

/**
 * The calls of a local provider: its transport under the policy stack (`policyStack`) built from
 * `options`. Never throws on a failed call: it returns `ok: false` with the reason; it rejects only
 * when the caller's signal aborts or on a configuration error.
 */
export function localCall(
  providerId: string,
  transport: Transport,
  options: CallPolicyOptions = {},
): { call: ModelCall; limiter: AdaptiveLimiter } {
  const limiter = limiterFor(transport, options);
  const price = priceFor(providerId, transport.model, options.prices);
  const mode = options.cacheMode ?? DEFAULT_POLICY.cacheMode;
  const cache = options.cache ?? null;
  const { limiter: _limiter, timeoutMs, ...retry } = retryPolicyOf(options, limiter);
  const key = (request: GenerateRequest, schema: WireSchema | undefined) => keyOf(transport, request, schema);
  const stack = policyStack({
    providerId,
    price,
    onCall: options.onCall,
    timed: true,
    // cache-only without a cache still gets the policy: it fails every call, saying why.
    cache:
      mode === 'no-cache' || (mode === 'normal' && !cache)
        ? null
        : { cache, mode, key, model: transport.model, price },
    budget: options.budget ?? null,
    expectedOutputTokens: options.expectedOutputTokens,
    retry,
    limiter,
  });
  return { call: composeCall(transportCall(transport, price, timeoutMs), stack), limiter };
}

/**
 * The limiter a transport's calls share: the one given in the options unless this transport can
 * serve fewer calls at once (one in-process model), else one of `concurrency` slots.
 */
export function limiterFor(transport: Transport, options: CallPolicyOptions = {}): AdaptiveLimiter {
  const shared = options.limiter;
  if (shared && (transport.maxConcurrency === undefined || shared.max <= transport.maxConcurrency))
    return shared;
  const concurrency = Math.min(
    options.concurrency ?? DEFAULT_POLICY.concurrency,
    transport.maxConcurrency ?? Number.POSITIVE_INFINITY,
  );
  return new AdaptiveLimiter({ max: concurrency });
}

/** The cache key of a call on `transport` (see `cacheKey` for what goes in). */
function keyOf(transport: Transport, request: GenerateRequest, schema: WireSchema | undefined): string {
  return cacheKey({
    kind: transport.kind,
    model: transport.model,
    baseUrl: transport.baseUrl,
    messages: request.messages,
    schema: schema?.jsonSchema,
    temperature: request.temperature,
    seed: request.seed,
    maxTokens: request.maxTokens,
  });
}

/** The retry policy for a set of call options (defaults from DEFAULT_POLICY). */
export function retryPolicyOf(options: CallPolicyOptions, limiter: AdaptiveLimiter): RetryPolicy {
  return {
    limiter,
    maxAttempts: options.maxAttempts ?? DEFAULT_POLICY.maxAttempts,
    timeoutMs: options.timeoutMs ?? DEFAULT_POLICY.timeoutMs,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_POLICY.retryBaseMs,
    retryMaxMs: options.retryMaxMs ?? DEFAULT_POLICY.retryMaxMs,
    retryAfterMaxMs: options.retryAfterMaxMs ?? DEFAULT_POLICY.retryAfterMaxMs,
    retryDelayScale: options.retryDelayScale ?? DEFAULT_POLICY.retryDelayScale,
    random: options.random ?? Math.random,
  };
}
