export { type AnalyzerConfig, createAnalyzer, DEFAULT_ANALYZER, STOPWORDS } from './analyzer.js';
export { type Bm25BuildOptions, type Bm25Hit, Bm25Index, type Bm25Params } from './bm25.js';
export { Bm25Retriever } from './bm25-retriever.js';
export { RM3_DEFAULTS, type Rm3Options, rm3Expand } from './rm3.js';
