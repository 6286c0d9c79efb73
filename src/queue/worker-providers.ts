import {
  type CacheMode,
  type CreateProviderOptions,
  createProvider,
  type ReplyCache,
  type TransportProvider,
} from '../llm/index.js';

/**
 * The providers a queue worker makes its calls with (`QueueWorkerOptions.provider`): one per model
 * and cache mode, made on first use through the same LLM layer as a local run (this machine's keys,
 * cache, limiter, budget and retries). A job that asks for no cache gets a provider without one; a
 * worker run without a cache never reads or writes one, whatever the job asks.
 */
export function workerProviders(
  o: Omit<CreateProviderOptions, 'cache' | 'cacheMode'> & {
    cache: ReplyCache | null;
    /** The worker's own cache setting: `no-cache` overrides every job's. */
    cacheMode: CacheMode;
  },
): (model: string, mode: CacheMode) => TransportProvider {
  const { cache, cacheMode, ...options } = o;
  const providers = new Map<string, TransportProvider>();
  return (model, mode) => {
    const key = `${mode}\n${model}`;
    let p = providers.get(key);
    if (!p) {
      p = createProvider(model, {
        ...options,
        cache: mode === 'no-cache' ? null : cache,
        cacheMode: cacheMode === 'no-cache' ? 'no-cache' : mode,
      });
      providers.set(key, p);
    }
    return p;
  };
}
