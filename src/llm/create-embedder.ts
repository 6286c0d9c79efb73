import { CitegeistError, quoteValue } from '../core/index.js';
import type { ResponseCache } from './cache.js';
import type { CallPolicyOptions } from './call-policy.js';
import type { ProviderEnv } from './create-provider.js';
import type { Embedder } from './embedder.js';
import { HashedEmbedder } from './embedders/hashed.js';
import { LsaEmbedder } from './embedders/lsa.js';
import { OpenAiCompatibleEmbedder } from './embedders/openai-compatible.js';
import { type FeatureExtractor, TransformersEmbedder } from './embedders/transformers.js';
import type { FetchLike } from './http.js';
import type { ModuleImporter } from './optional-module.js';

export const DEFAULT_EMBEDDER = 'lsa:256';

export const EMBEDDER_SPEC_HELP =
  'Use default, lsa[:<dims>], lsa-bm25[:<dims>], hashed[:<dims>], openai:<model>, ollama:<model>, ' +
  'openai-compatible:<base-url>#<model>[?dims=N], or transformers:<folder>[?preset=bge|e5|minilm|contriever&pooling=mean|cls&normalize=true|false].';

export interface CreateEmbedderOptions extends Omit<CallPolicyOptions, 'cache'> {
  /** Vectors are cached in the workspace's SQLite file only. */
  cache?: ResponseCache | null;
  env?: ProviderEnv;
  fetch?: FetchLike;
  importer?: ModuleImporter;
  /** For tests of the transformers embedder. */
  extractor?: FeatureExtractor;
}

/**
 * Builds an embedder from a spec. `default` is the embedded LSA embedder (fitted on the corpus
 * being indexed; chosen by the QASPER measurement in docs/embeddings.md).
 */
export function createEmbedder(spec: string, options: CreateEmbedderOptions = {}): Embedder {
  const trimmed = spec.trim() === 'default' ? DEFAULT_EMBEDDER : spec.trim();
  const colon = trimmed.indexOf(':');
  const kind = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const rest = colon < 0 ? '' : trimmed.slice(colon + 1);
  const bad = (why: string) =>
    new CitegeistError('BAD_EMBEDDER_SPEC', `Embedder ${quoteValue(spec)} ${why}.`, EMBEDDER_SPEC_HELP);
  const { env = {}, fetch, importer, extractor, ...policies } = options;
  const dims = (text: string) => {
    if (text === '') return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 2 || n > 4096) throw bad(`has a bad dimension count "${text}"`);
    return n;
  };
  switch (kind) {
    case 'lsa':
      return new LsaEmbedder({ dimensions: dims(rest) ?? 256 });
    case 'lsa-bm25':
      return new LsaEmbedder({ dimensions: dims(rest) ?? 256, weighting: 'bm25' });
    case 'hashed':
      return new HashedEmbedder({ dimensions: dims(rest) ?? 1024 });
    case 'openai':
    case 'ollama':
    case 'openai-compatible': {
      const { path, query } = splitQuery(rest);
      let baseUrl: string;
      let model: string;
      let apiKey: string | undefined;
      if (kind === 'openai-compatible') {
        const hash = path.lastIndexOf('#');
        baseUrl = hash > 0 ? path.slice(0, hash) : '';
        model = hash > 0 ? path.slice(hash + 1) : '';
        if (!/^https?:\/\//.test(baseUrl) || model === '')
          throw bad('is not openai-compatible:<base-url>#<model>');
        apiKey = env.OPENAI_COMPATIBLE_API_KEY;
      } else if (kind === 'openai') {
        baseUrl = 'https://api.openai.com/v1';
        model = path;
        apiKey = env.OPENAI_API_KEY;
        if (!apiKey) {
          throw new CitegeistError(
            'MISSING_API_KEY',
            `The embedder "${spec}" needs an API key, and OPENAI_API_KEY is not set.`,
            'Set OPENAI_API_KEY in the environment.',
          );
        }
      } else {
        const host = env.OLLAMA_HOST
          ? /^https?:\/\//.test(env.OLLAMA_HOST)
            ? env.OLLAMA_HOST
            : `http://${env.OLLAMA_HOST}`
          : 'http://127.0.0.1:11434';
        baseUrl = `${host.replace(/\/+$/, '')}/v1`;
        model = path;
      }
      if (model === '') throw bad('names no model');
      const d = dims(query.get('dims') ?? '');
      return new OpenAiCompatibleEmbedder({
        ...policies,
        kind,
        baseUrl,
        model,
        ...(apiKey ? { apiKey } : {}),
        ...(d ? { dimensions: d } : {}),
        ...(query.get('query-prefix') ? { queryPrefix: query.get('query-prefix') as string } : {}),
        ...(query.get('passage-prefix') ? { passagePrefix: query.get('passage-prefix') as string } : {}),
        ...(fetch ? { fetch } : {}),
      });
    }
    case 'transformers': {
      const { path, query } = splitQuery(rest);
      if (path === '') throw bad('names no model folder');
      const pooling = query.get('pooling');
      if (pooling !== null && pooling !== 'mean' && pooling !== 'cls')
        throw bad(`has pooling "${pooling}" (mean or cls)`);
      const normalize = query.get('normalize');
      return new TransformersEmbedder({
        folder: path,
        ...(query.get('preset') ? { preset: query.get('preset') as string } : {}),
        ...(pooling ? { pooling } : {}),
        ...(normalize !== null ? { normalize: normalize !== 'false' } : {}),
        ...(importer ? { importer } : {}),
        ...(extractor ? { extractor } : {}),
      });
    }
    default:
      throw bad(`names an unknown kind "${kind}"`);
  }
}

function splitQuery(rest: string): { path: string; query: URLSearchParams } {
  const q = rest.lastIndexOf('?');
  return q < 0
    ? { path: rest, query: new URLSearchParams() }
    : { path: rest.slice(0, q), query: new URLSearchParams(rest.slice(q + 1)) };
}

/** An embedder that must be fitted on the corpus before use (the embedded LSA default). */
export interface CorpusFittedEmbedder extends Embedder {
  readonly fitted: boolean;
  fit(texts: readonly string[]): unknown;
  /** The passage embeddings of the fitted texts, if the fit can give them without re-embedding. */
  takeFittedEmbeddings?(): Float32Array[] | null;
}

export function needsFitting(embedder: Embedder): embedder is CorpusFittedEmbedder {
  return typeof (embedder as Partial<CorpusFittedEmbedder>).fit === 'function';
}
