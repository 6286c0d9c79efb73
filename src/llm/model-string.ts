import { CitegeistError, quoteValue } from '../core/index.js';

export type ProviderKind =
  | 'openai'
  | 'anthropic'
  | 'gemini'
  | 'ollama'
  | 'vllm'
  | 'openai-compatible'
  | 'gguf';

/** A parsed model string. `baseUrl` only for openai-compatible (others resolve it at creation). */
export interface ModelSpec {
  kind: ProviderKind;
  /** The model name the API expects, or the GGUF file path. */
  model: string;
  baseUrl?: string;
  /**
   * Replicas of one model (`openai-compatible:http://a/v1,http://b/v1#m`): every base URL, the
   * first being `baseUrl`. Calls are balanced across them (`BalancedTransport`).
   */
  replicas?: string[];
}

const KINDS: ProviderKind[] = [
  'openai',
  'anthropic',
  'gemini',
  'ollama',
  'vllm',
  'openai-compatible',
  'gguf',
];

export const MODEL_STRING_HELP =
  'Use openai:<model>, anthropic:<model>, gemini:<model>, ollama:<model>, vllm:<model>, ' +
  'openai-compatible:<base-url>[,<base-url>…]#<model> or gguf:<path-to-file.gguf>.';

/**
 * Parses `kind:rest`. Only the first colon separates the kind, so `ollama:qwen2.5:7b` keeps its
 * tag; `openai-compatible:` splits its rest at the last `#` into base URL and model, and the base
 * URL part at commas into the replicas of one model.
 */
export function parseModelString(spec: string, source = '--model'): ModelSpec {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const kind = colon > 0 ? trimmed.slice(0, colon) : '';
  const rest = colon > 0 ? trimmed.slice(colon + 1).trim() : '';
  const bad = (why: string) =>
    new CitegeistError('BAD_MODEL_STRING', `${source} ${quoteValue(spec)} ${why}.`, MODEL_STRING_HELP);
  if (!(KINDS as string[]).includes(kind)) {
    throw bad(kind ? `names an unknown provider "${kind}"` : 'has no provider prefix');
  }
  if (rest === '') throw bad('names no model');
  if (kind === 'openai-compatible') {
    const hash = rest.lastIndexOf('#');
    const urls = (hash > 0 ? rest.slice(0, hash) : '').split(',').map((u) => u.trim().replace(/\/+$/, ''));
    const model = hash > 0 ? rest.slice(hash + 1) : '';
    if (!urls.every((u) => /^https?:\/\/[^\s#,]+$/.test(u)) || model === '') {
      throw bad('is not of the form openai-compatible:<http(s)-base-url>[,<http(s)-base-url>…]#<model>');
    }
    if (new Set(urls).size < urls.length) throw bad('names one base URL twice');
    const spec: ModelSpec = { kind: 'openai-compatible', model, baseUrl: urls[0]! };
    if (urls.length > 1) spec.replicas = urls;
    return spec;
  }
  return { kind: kind as ProviderKind, model: rest };
}

/** The canonical id of a spec (what reports and cache keys show). */
export function modelId(spec: ModelSpec): string {
  return spec.kind === 'openai-compatible'
    ? `openai-compatible:${(spec.replicas ?? [spec.baseUrl]).join(',')}#${spec.model}`
    : `${spec.kind}:${spec.model}`;
}
