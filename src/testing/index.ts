export { arbitraryJson, arbitraryReplies } from './arbitrary-json.js';
export { FakeAnthropicServer } from './fake-anthropic-server.js';
export { FakeEmbedder } from './fake-embedder.js';
export { FakeGeminiServer } from './fake-gemini-server.js';
export {
  type Dialect,
  type FakeAction,
  FakeHttpServer,
  type FakeRequest,
  type FakeResponder,
  type FakeServerOptions,
  faults,
  hashVector,
} from './fake-http-server.js';
export { FakeLlm, type FakeLlmOptions, type FakeReply } from './fake-llm.js';
export { type FakeOpenAiOptions, FakeOpenAiServer } from './fake-openai-server.js';
export { FakeOpenAlexServer, type FakeOpenAlexWorkSpec } from './fake-openalex-server.js';
export { pathologicalInputs } from './pathological-inputs.js';
export { findRedisServer, REDIS_MISSING, RedisTestServer } from './redis-server.js';
export { runRecords } from './run-records.js';
export { missingSharedData, sharedDataPath, skipWithoutSharedData } from './shared-data.js';
