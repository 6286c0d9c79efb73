export { type ChunkOptions, chunkDocument, type Passage } from './passage.js';
