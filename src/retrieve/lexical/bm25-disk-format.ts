import type { AnalyzerConfig } from './analyzer.js';

/** The files of a BM25 index on disk (inside an index generation folder). */
export const BM25_FILES = {
  header: 'bm25.json',
  /** The dictionary's block index (binary, `bm25-block-index.ts`), searched by page reads. */
  blocks: 'bm25.blocks',
  dict: 'bm25.dict',
  postings: 'bm25.post',
  docLen: 'bm25.doclen',
} as const;

/** Terms per dictionary block: the header lists each block's first term, a lookup reads one block. */
export const DICT_BLOCK = 128;

/** The format of a BM25 part (5: the block index is binary and searched by page reads). */
export const BM25_FORMAT = 5;

/**
 * `bm25.json`: what the reader needs at open (a few hundred bytes whatever the vocabulary).
 * `bm25.blocks`: the block index (`bm25-block-index.ts`): the first term and byte range of each
 * `DictBlock`, a JSON line of `bm25.dict` whose entries are [term, df, postings byte offset,
 * largest impact (at k1, b), largest tf, smallest document length]. `bm25.post` holds per term
 * its df document numbers then its df term frequencies (uint32 LE); `bm25.doclen` the analysed
 * length of each document (uint32 LE), read by pages as queries touch them.
 */
export interface Bm25DiskHeader {
  format: typeof BM25_FORMAT;
  analyzer: AnalyzerConfig;
  k1: number;
  b: number;
  documents: number;
  totalLength: number;
  terms: number;
  /** Blocks of the dictionary (entries of `bm25.blocks`). */
  blocks: number;
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

/** The order of the term dictionary: UTF-16 code units, as `<` compares strings. */
export function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
