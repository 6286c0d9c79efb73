export { type AnalyzerConfig, createAnalyzer, DEFAULT_ANALYZER, STOPWORDS } from './analyzer.js';
export { type Bm25BuildOptions, Bm25Index, type Bm25Params } from './bm25.js';
