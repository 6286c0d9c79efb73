export { type ChunkOptions, chunkDocument, type Passage } from './passage.js';
export { sentenceSpans } from './sentence-spans.js';
