export { type AnalyzerConfig, createAnalyzer, DEFAULT_ANALYZER, STOPWORDS } from './analyzer.js';
export { type Bm25BuildOptions, type Bm25Hit, Bm25Index, type Bm25Params } from './bm25.js';
export { Bm25DiskIndex } from './bm25-disk.js';
export { BM25_FILES, type Bm25DiskHeader } from './bm25-disk-format.js';
export { BM25_DEFAULTS } from './bm25-formula.js';
export { Bm25Retriever } from './bm25-retriever.js';
export {
  type Bm25Segments,
  Bm25SegmentWriter,
  mergeBm25Segments,
  SEGMENT_POSTINGS,
} from './bm25-segments.js';
export { RM3_DEFAULTS, type Rm3Options, rm3Expand } from './rm3.js';
