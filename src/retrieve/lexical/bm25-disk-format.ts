import type { AnalyzerConfig } from './analyzer.js';

/** The files of a BM25 index on disk (inside an index generation folder). */
export const BM25_FILES = {
  header: 'bm25.json',
  /** The dictionary's block index (binary, `bm25-block-index.ts`), searched by page reads. */
  blocks: 'bm25.blocks',
  dict: 'bm25.dict',
  postings: 'bm25.post',
  /** Per-block skip data of the terms with more than one block of postings. */
  skips: 'bm25.skips',
  docLen: 'bm25.doclen',
} as const;

/** Terms per dictionary block: the header lists each block's first term, a lookup reads one block. */
export const DICT_BLOCK = 128;

/**
 * The format of a BM25 part (6: postings in blocks of `POSTING_BLOCK` with per-block skip data,
 * read block by block; 5: each term's whole list read at once; the block index is binary since 5).
 */
export const BM25_FORMAT = 6;

/** Postings per block: a block is one read, and one skip record bounds its impacts. */
export const POSTING_BLOCK = 128;

/** Bytes of one skip record: last document, largest impact, largest tf, smallest length (4 each). */
export const SKIP_RECORD = 16;

/** Blocks of a list of `df` postings (the last one may be shorter). */
export function blocksOf(df: number): number {
  return Math.ceil(df / POSTING_BLOCK);
}

/**
 * `bm25.json`: what the reader needs at open (a few hundred bytes whatever the vocabulary).
 * `bm25.blocks`: the block index (`bm25-block-index.ts`): the first term and byte range of each
 * `DictBlock`, a JSON line of `bm25.dict` whose entries are [term, df, postings byte offset,
 * largest impact (at k1, b), largest tf, smallest document length, skip data byte offset].
 * `bm25.post` holds per term its postings in blocks of `POSTING_BLOCK` (the last one shorter),
 * each block its document numbers then their term frequencies (uint32 LE), so block i of a term
 * is the one read of min(128, df − 128·i)·8 bytes at offset + 1024·i. `bm25.skips` holds, for
 * each term of more than one block (b = `blocksOf(df)` blocks), four arrays of b values: each
 * block's last document number (uint32), largest impact at the build's k1, b and statistics
 * (float32: impacts are float32 values, so exact), largest tf and smallest document length
 * (uint32) — 16·b bytes at the entry's skip offset (0 and no record for a term of one block,
 * whose bounds are the entry's own). `bm25.doclen` the analysed length of each document
 * (uint32 LE), read by pages as queries touch them.
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
  skips: number,
];

/** The order of the term dictionary: UTF-16 code units, as `<` compares strings. */
export function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
