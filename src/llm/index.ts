export { BalancedTransport } from './balanced-transport.js';
export {
  Budget,
  type BudgetHold,
  CHARS_PER_TOKEN,
  type CostEstimate,
  DEFAULT_EXPECTED_OUTPUT_TOKENS,
  estimateCost,
  estimateInputTokens,
  projectCost,
} from './budget.js';
export {
  type CachedReply,
  type CacheMode,
  cacheKey,
  type ReplyCache,
  ResponseCache,
  type StoredReply,
} from './cache.js';
export {
  type CallEvent,
  type CallPolicyOptions,
  callEventOf,
  DEFAULT_POLICY,
  limiterFor,
  localCall,
  retryPolicyOf,
} from './call-policy.js';
export {
  type CorpusFittedEmbedder,
  type CreateEmbedderOptions,
  createEmbedder,
  DEFAULT_EMBEDDER,
  EMBEDDER_SPEC_HELP,
  needsFitting,
} from './create-embedder.js';
export {
  type CreateProviderOptions,
  createProvider,
  OLLAMA_DEFAULT_HOST,
  OPENAI_BASE_URL,
  type ProviderEnv,
} from './create-provider.js';
export { delimit, UNTRUSTED_NOTE } from './delimit.js';
export type { Embedder, EmbedRole } from './embedder.js';
export { HashedEmbedder, type HashedOptions } from './embedders/hashed.js';
export { LsaEmbedder, type LsaModelJson, type LsaOptions } from './embedders/lsa.js';
export { OpenAiCompatibleEmbedder, type OpenAiEmbedderOptions } from './embedders/openai-compatible.js';
export {
  type FeatureExtractor,
  PRESETS as TRANSFORMERS_PRESETS,
  TRANSFORMERS_VERSION,
  TransformersEmbedder,
  type TransformersOptions,
  type TransformersPreset,
} from './embedders/transformers.js';
export {
  ENCODER_MODEL_TYPES,
  readModelConfig,
  TransformersTokenEncoder,
  type TransformersTokenOptions,
} from './embedders/transformers-tokens.js';
export { circularityWarnings, modelFamily } from './family.js';
export { type FetchLike, isRetryableStatus, parseRetryAfter, type ResponseLike, redact } from './http.js';
export { extractJson } from './json-extract.js';
export { AdaptiveLimiter, type LimiterOptions } from './limiter.js';
export {
  MODEL_STRING_HELP,
  type ModelSpec,
  modelId,
  type ProviderKind,
  parseModelString,
} from './model-string.js';
export { createNodeFetch } from './node-fetch.js';
export { dynamicImport, loadOptional, type ModuleImporter } from './optional-module.js';
export { budgetPolicy } from './policies/budget-policy.js';
export { type CachePolicyOptions, cachePolicy } from './policies/cache-policy.js';
export { type CallPolicy, composeCall, type ModelCall, type ModelOutcome } from './policies/call-stack.js';
export { limitPolicy } from './policies/limit-policy.js';
export { observePolicy, timePolicy } from './policies/observe-policy.js';
export { type PolicyStackOptions, policyStack } from './policies/policy-stack.js';
export { retryPolicy } from './policies/retry-policy.js';
export { transportCall } from './policies/transport-call.js';
export { BUILTIN_PRICES, costOf, PRICES_CHECKED, type Price, type PriceTable, priceFor } from './prices.js';
export type {
  CallMeta,
  ChatMessage,
  GenerateRequest,
  GenerateResult,
  LlmProvider,
  ObjectRequest,
  ObjectResult,
  TokenUsage,
} from './provider.js';
export { AnthropicTransport } from './providers/anthropic.js';
export { GeminiTransport } from './providers/gemini.js';
export { toGeminiSchema } from './providers/gemini-schema.js';
export { LlamaCppTransport, NODE_LLAMA_CPP_VERSION } from './providers/llama-cpp.js';
export { OpenAiCompatibleTransport, type StructuredMode } from './providers/openai-compatible.js';
export {
  type BackoffPolicy,
  backoff,
  RETRY_AFTER_CAP_MS,
  type RetryableFailure,
  type RetryPolicy,
  retryLoop,
  sleep,
  withRetries,
} from './retry.js';
export { generateValidated, jsonInstruction, jsonSchemaOf, validateReply } from './structured.js';
export type { EncodedText, TokenEncoder } from './token-encoder.js';
export type { Transport, WireFailure, WireReply, WireRequest, WireSchema } from './transport.js';
export { TransportProvider, type TransportProviderOptions, wireName } from './transport-provider.js';
