export { type DecodedIndexFile, decodeIndexFile, encodeIndexFile, readIndexJson } from './index-file.js';
export { AppendFile, appendToCopy, PageFile, SequentialReader, writeFailure } from './page-file.js';
export { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';
export { type RunIdLookup, RunRetriever, resolveRun } from './run-retriever.js';
export { TopK } from './top-k.js';
