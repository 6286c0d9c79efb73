import type { CacheMode, ReplyCache } from '../cache.js';
import type { Price } from '../prices.js';
import type { GenerateRequest } from '../provider.js';
import type { WireSchema } from '../transport.js';
import type { CallPolicy } from './call-stack.js';

export interface CachePolicyOptions {
  /** Null with mode cache-only: every call fails, saying no cache is configured. */
  cache: ReplyCache | null;
  mode: Exclude<CacheMode, 'no-cache'>;
  /** The cache key of a call (`cacheKey` over the transport and the request). */
  key: (request: GenerateRequest, schema: WireSchema | undefined) => string;
  /** The model name stored beside each reply. */
  model: string;
  /** A cached reply costs 0 when the model is priced and the reply has usage, else unknown. */
  price: Price | null;
}

/**
 * Cache: a stored reply answers the call without calling on (cost 0, no retries); a miss calls on
 * and stores a successful reply. In cache-only mode a miss fails the call instead.
 */
export function cachePolicy(options: CachePolicyOptions): CallPolicy {
  const { cache, mode, price } = options;
  return (next) => async (request, schema) => {
    const started = performance.now();
    const key = cache ? options.key(request, schema) : '';
    const hit = cache ? await cache.get(key) : undefined;
    const meta = { retries: 0, cached: hit !== undefined };
    if (hit) {
      const costUsd = price && hit.usage ? 0 : null;
      const latencyMs = performance.now() - started;
      return { ok: true, text: hit.text, usage: hit.usage, costUsd, ...meta, latencyMs };
    }
    if (mode === 'cache-only') {
      const reason = cache
        ? 'cache miss in cache-only mode (no stored reply for this request)'
        : 'cache-only mode but no response cache is configured';
      return {
        ok: false,
        reason,
        usage: null,
        costUsd: null,
        ...meta,
        latencyMs: performance.now() - started,
      };
    }
    const outcome = await next(request, schema);
    if (outcome.ok) cache?.set(key, options.model, { text: outcome.text, usage: outcome.usage });
    return outcome;
  };
}
