import type { AnalyzerConfig } from './analyzer.js';

/** The files of a BM25 index on disk (inside an index generation folder). */
export const BM25_FILES = {
  header: 'bm25.json',
  /** The dictionary's block index, read at the first lookup (not at open). */
  blocks: 'bm25.blocks.json',
  dict: 'bm25.dict',
  postings: 'bm25.post',
  docLen: 'bm25.doclen',
} as const;

/** Terms per dictionary block: the header lists each block's first term, a lookup reads one block. */
export const DICT_BLOCK = 128;

/**
 * `bm25.json`: what the reader needs at open (a few hundred bytes whatever the vocabulary).
 * `bm25.blocks.json`: `DictBlock`s, [first term, byte offset, byte length] of each JSON line of
 * `bm25.dict` (read at the first lookup: at millions of terms it is megabytes), whose entries are [term, df, postings byte offset,
 * largest impact (at k1, b), largest tf, smallest document length]. `bm25.post` holds per term
 * its df document numbers then its df term frequencies (uint32 LE); `bm25.doclen` the analysed
 * length of each document (uint32 LE).
 */
export interface Bm25DiskHeader {
  format: 4;
  analyzer: AnalyzerConfig;
  k1: number;
  b: number;
  documents: number;
  totalLength: number;
  terms: number;
}

/** One dictionary block: its first term, byte offset and byte length in `bm25.dict`. */
export type DictBlock = [first: string, offset: number, length: number];

export type DictEntry = [
  term: string,
  df: number,
  offset: number,
  maxImpact: number,
  maxTf: number,
  minDl: number,
];
