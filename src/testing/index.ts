export { FakeEmbedder } from './fake-embedder.js';
export { FakeLlm, type FakeLlmOptions, type FakeReply, lastUserMessage } from './fake-llm.js';
export { sharedDataPath } from './shared-data.js';
