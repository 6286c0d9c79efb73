export { type DecodedIndexFile, decodeIndexFile, encodeIndexFile } from './index-file.js';
export { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';
export { TopK } from './top-k.js';
