import { createHash } from 'node:crypto';
import { CitegeistError } from '../../core/index.js';
import type { CacheMode, ResponseCache } from '../cache.js';
import { type CallPolicyOptions, retryPolicyOf } from '../call-policy.js';
import type { Embedder, EmbedRole } from '../embedder.js';
import { type FetchLike, joinUrl, postJson } from '../http.js';
import { AdaptiveLimiter } from '../limiter.js';
import { createNodeFetch } from '../node-fetch.js';
import { withRetries } from '../retry.js';
import { normalize } from './tokenize.js';

/** Output sizes of common embedding models (others: pass `dimensions`, or it is learnt on first use). */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'bge-m3': 1024,
  'all-minilm': 384,
};

export interface OpenAiEmbedderOptions extends Omit<CallPolicyOptions, 'cache'> {
  /** Vectors are cached in the workspace's SQLite file only. */
  cache?: ResponseCache | null;
  kind?: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
  dimensions?: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Prepended to queries / passages (e.g. "query: " for E5 served by TEI or vLLM). */
  queryPrefix?: string;
  passagePrefix?: string;
  fetch?: FetchLike;
}

/**
 * `/v1/embeddings` of any OpenAI-compatible server (OpenAI, TEI, vLLM, Ollama, LM Studio). Texts
 * are batched, cached per text in the shared SQLite cache and retried by the shared retry loop.
 * A batch that still fails rejects with a CitegeistError naming the reason (an index cannot be
 * built with holes in it).
 */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly normalized = true;
  private dims: number;
  readonly #apiKey: string | undefined;
  private readonly fetchImpl: FetchLike;
  private readonly limiter: AdaptiveLimiter;

  constructor(private readonly options: Omit<OpenAiEmbedderOptions, 'apiKey'> & { apiKey?: string }) {
    this.#apiKey = options.apiKey;
    this.options = { ...options, apiKey: '' };
    this.id = `${options.kind ?? 'openai-compatible'}:${options.model}`;
    this.dims = options.dimensions ?? KNOWN_DIMENSIONS[options.model.replace(/:.*$/, '')] ?? 0;
    this.fetchImpl = options.fetch ?? createNodeFetch();
    this.limiter = options.limiter ?? new AdaptiveLimiter({ max: options.concurrency ?? 4 });
  }

  /** The vector size (0 until the first reply when the model is not in the known table). */
  get dimensions(): number {
    return this.dims;
  }

  async embed(texts: string[], role: EmbedRole): Promise<Float32Array[]> {
    const prefix = (role === 'query' ? this.options.queryPrefix : this.options.passagePrefix) ?? '';
    const inputs = texts.map((t) => prefix + t);
    const mode: CacheMode = this.options.cacheMode ?? 'normal';
    const cache: ResponseCache | null = mode === 'no-cache' ? null : (this.options.cache ?? null);
    const keys = inputs.map((t) => this.key(t));
    const out: (Float32Array | undefined)[] = keys.map((k) => cache?.getEmbedding(k));
    const missing = [...out.keys()].filter((i) => out[i] === undefined);
    if (missing.length > 0 && mode === 'cache-only') {
      throw new CitegeistError(
        'CACHE_MISS',
        `${missing.length} embedding(s) for ${this.id} are not in the cache (cache-only mode).`,
        'Run without --cache-only.',
      );
    }
    const size = Math.max(1, this.options.batchSize ?? 64);
    const batches: number[][] = [];
    for (let i = 0; i < missing.length; i += size) batches.push(missing.slice(i, i + size));
    await Promise.all(
      batches.map(async (batch) => {
        const vectors = await this.request(batch.map((i) => inputs[i] as string));
        for (const [j, i] of batch.entries()) {
          const v = normalize(vectors[j] as Float32Array);
          out[i] = v;
          cache?.setEmbedding(keys[i] as string, this.options.model, v);
        }
      }),
    );
    return out as Float32Array[];
  }

  private key(text: string): string {
    return createHash('sha256')
      .update(
        JSON.stringify([
          'citegeist-embed-v1',
          this.options.kind ?? 'openai-compatible',
          this.options.baseUrl,
          this.options.model,
          text,
        ]),
      )
      .digest('hex');
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = {};
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const url = joinUrl(this.options.baseUrl, 'embeddings');
    const { reply } = await withRetries(
      async (signal) => {
        const r = await postJson(
          this.fetchImpl,
          url,
          headers,
          { model: this.options.model, input },
          signal,
          this.#apiKey ? [this.#apiKey] : [],
        );
        if (!r.ok) {
          const { body: _b, ...failure } = r;
          return failure;
        }
        const data = (r.json as { data?: { index?: number; embedding?: number[] }[] }).data;
        if (!Array.isArray(data) || data.length !== input.length) {
          return {
            ok: false as const,
            reason: `expected ${input.length} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`,
            retryable: true,
          };
        }
        const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        return { ok: true as const, vectors: sorted.map((d) => Float32Array.from(d.embedding ?? [])) };
      },
      retryPolicyOf(this.options, this.limiter),
    );
    if (!reply.ok) {
      throw new CitegeistError(
        'EMBEDDING_FAILED',
        `Embedding ${input.length} text(s) with ${this.id} failed: ${reply.reason}`,
        'Check the server and model name, then run again (finished batches are cached).',
      );
    }
    const dims = reply.vectors[0]?.length ?? 0;
    if (this.dims === 0) this.dims = dims;
    if (reply.vectors.some((v) => v.length !== this.dims)) {
      throw new CitegeistError(
        'EMBEDDER_MISCONFIGURED',
        `${this.id} returned ${dims}-d vectors; ${this.dims} were expected.`,
        'Set the right dimensions for this model.',
      );
    }
    return reply.vectors;
  }
}
