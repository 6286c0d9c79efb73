import { CitegeistError } from '../core/index.js';
import { BalancedTransport } from './balanced-transport.js';
import type { CallPolicyOptions } from './call-policy.js';
import type { FetchLike } from './http.js';
import { type ModelSpec, modelId, parseModelString } from './model-string.js';
import type { ModuleImporter } from './optional-module.js';
import { AnthropicTransport } from './providers/anthropic.js';
import { GeminiTransport } from './providers/gemini.js';
import { LlamaCppTransport } from './providers/llama-cpp.js';
import { OpenAiCompatibleTransport, type StructuredMode } from './providers/openai-compatible.js';
import type { Transport } from './transport.js';
import { TransportProvider } from './transport-provider.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const OLLAMA_DEFAULT_HOST = 'http://127.0.0.1:11434';

/** Environment variables a provider may read, passed in explicitly (never read from process.env here). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

export interface CreateProviderOptions extends CallPolicyOptions {
  /** Where API keys and hosts come from (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, OLLAMA_HOST, VLLM_BASE_URL). */
  env?: ProviderEnv;
  /** Overrides the provider's base URL (e.g. an OpenAI proxy, a vLLM server, a test server). */
  baseUrl?: string;
  /** For OpenAI-compatible servers: how structured output is requested (default auto). */
  structuredMode?: StructuredMode;
  fetch?: FetchLike;
  contextWindow?: number;
  /** For gguf: the module importer (tests simulate a missing package with it). */
  importer?: ModuleImporter;
}

/** Builds the provider a model string names, with every policy (cache, limiter, budget, retries). */
export function createProvider(
  spec: string | ModelSpec,
  options: CreateProviderOptions = {},
): TransportProvider {
  const parsed = typeof spec === 'string' ? parseModelString(spec) : spec;
  const transport = createTransport(parsed, options);
  const id = modelId(parsed);
  // Only policies reach the provider: the environment (and its keys) stays here.
  const {
    env: _env,
    fetch: _fetch,
    importer: _importer,
    baseUrl: _baseUrl,
    structuredMode: _mode,
    ...policies
  } = options;
  return new TransportProvider(id, transport, policies);
}

function createTransport(spec: ModelSpec, options: CreateProviderOptions): Transport {
  const env = options.env ?? {};
  const common = options.fetch ? { fetch: options.fetch } : {};
  const compatible = (kind: string, baseUrl: string, apiKey?: string) =>
    new OpenAiCompatibleTransport({
      kind,
      model: spec.model,
      baseUrl,
      ...(apiKey ? { apiKey } : {}),
      ...(options.structuredMode ? { structuredMode: options.structuredMode } : {}),
      ...(kind === 'openai' ? { maxTokensField: 'max_completion_tokens' as const } : {}),
      ...common,
    });
  switch (spec.kind) {
    case 'openai':
      return compatible(
        'openai',
        options.baseUrl ?? OPENAI_BASE_URL,
        requireKey(env, 'OPENAI_API_KEY', spec),
      );
    case 'ollama': {
      const host =
        options.baseUrl ??
        `${(env.OLLAMA_HOST ? withScheme(env.OLLAMA_HOST) : OLLAMA_DEFAULT_HOST).replace(/\/+$/, '')}/v1`;
      return compatible('ollama', host);
    }
    case 'vllm': {
      const base = options.baseUrl ?? env.VLLM_BASE_URL;
      if (!base?.trim()) {
        throw new CitegeistError(
          'MISSING_BASE_URL',
          `The model "${modelId(spec)}" needs the vLLM server's URL, and VLLM_BASE_URL is not set.`,
          'Set VLLM_BASE_URL (e.g. http://127.0.0.1:8000/v1), or use openai-compatible:<base-url>#<model>.',
        );
      }
      // VLLM_BASE_URL may list the replicas of one model, comma-separated.
      return replicas(
        base.split(',').map((u) => u.trim()),
        (url) => compatible('vllm', url, env.VLLM_API_KEY),
      );
    }
    case 'openai-compatible':
      return replicas(options.baseUrl ? [options.baseUrl] : (spec.replicas ?? [spec.baseUrl ?? '']), (url) =>
        compatible('openai-compatible', url, env.OPENAI_COMPATIBLE_API_KEY),
      );
    case 'anthropic':
      return new AnthropicTransport({
        model: spec.model,
        apiKey: requireKey(env, 'ANTHROPIC_API_KEY', spec),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...common,
      });
    case 'gemini':
      return new GeminiTransport({
        model: spec.model,
        apiKey: requireKey(env, 'GEMINI_API_KEY', spec),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...common,
      });
    case 'gguf':
      return new LlamaCppTransport({
        modelPath: spec.model,
        ...(options.importer ? { importer: options.importer } : {}),
      });
  }
}

/** One transport, or the replicas of one model balanced behind one. */
function replicas(urls: string[], make: (url: string) => Transport): Transport {
  return urls.length === 1 ? make(urls[0]!) : new BalancedTransport(urls.map(make));
}

function requireKey(env: ProviderEnv, name: string, spec: ModelSpec): string {
  const key = env[name]?.trim();
  if (!key) {
    throw new CitegeistError(
      'MISSING_API_KEY',
      `The model "${modelId(spec)}" needs an API key, and ${name} is not set.`,
      `Set ${name} in the environment (e.g. \`export ${name}=...\`); keys are never read from config files.`,
    );
  }
  return key;
}

/** OLLAMA_HOST may be "host:port" without a scheme (as the ollama CLI accepts). */
function withScheme(host: string): string {
  return /^https?:\/\//.test(host) ? host : `http://${host}`;
}
