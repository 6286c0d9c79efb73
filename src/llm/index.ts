export type { Embedder, EmbedRole } from './embedder.js';
export { extractJson } from './json-extract.js';
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
export { generateValidated, jsonInstruction, jsonSchemaOf, validateReply } from './structured.js';
