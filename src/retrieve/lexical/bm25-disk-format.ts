import type { AnalyzerConfig } from './analyzer.js';

/** The files of a BM25 index on disk (inside an index generation folder). */
export const BM25_FILES = {
  header: 'bm25.json',
  dict: 'bm25.dict',
  postings: 'bm25.post',
  docLen: 'bm25.doclen',
} as const;

/** Terms per dictionary block: the header lists each block's first term, a lookup reads one block. */
export const DICT_BLOCK = 128;

/**
 * `bm25.json`: what the reader needs in memory. `blocks` are [first term, byte offset, byte
 * length] of each JSON line of `bm25.dict`, whose entries are [term, df, postings byte offset,
 * largest impact (at k1, b), largest tf, smallest document length]. `bm25.post` holds per term
 * its df document numbers then its df term frequencies (uint32 LE); `bm25.doclen` the analysed
 * length of each document (uint32 LE).
 */
export interface Bm25DiskHeader {
  format: 3;
  analyzer: AnalyzerConfig;
  k1: number;
  b: number;
  documents: number;
  totalLength: number;
  terms: number;
  blocks: [string, number, number][];
}

export type DictEntry = [
  term: string,
  df: number,
  offset: number,
  maxImpact: number,
  maxTf: number,
  minDl: number,
];
