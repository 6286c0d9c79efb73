import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WordScanner, WordTable, withRoom } from '../../text/index.js';
import { AppendFile, PageFile, SequentialReader, writeFailure } from '../common/page-file.js';
import { type AnalyzerConfig, createWordAnalyzer } from './analyzer.js';
import { writeBlockIndex } from './bm25-block-index.js';
import {
  BM25_FILES,
  BM25_FORMAT,
  type Bm25DiskHeader,
  blocksOf,
  DICT_BLOCK,
  type DictBlock,
  POSTING_BLOCK,
} from './bm25-disk-format.js';
import { averageLength, idfOf, impactOf } from './bm25-formula.js';

/** Postings held in memory before a segment is written to disk (12 bytes each while building). */
export const SEGMENT_POSTINGS = 4_000_000;

/**
 * Builds a BM25 index on disk in bounded memory: documents are analysed as they come; their
 * postings collect in a segment that is sorted by term and written out when it holds
 * `segmentPostings`; `finish` merges the segments (a k-way merge by term, reading each segment
 * forward) into one term dictionary and one postings file, computing each term's largest impact
 * for dynamic pruning. Memory holds one segment and one term's postings, whatever the corpus size.
 */
export class Bm25SegmentWriter {
  private readonly termOfWord: (word: string) => string | null;
  private readonly docLen: AppendFile;
  private vocab = new Map<string, number>();
  /** The segment's term number of each word seen in it (−1: a stop word): one lookup per token. */
  private wordTerm = new WordTable();
  private readonly words = new WordScanner();
  /** Occurrences in the current document per term number, and the terms in first-occurrence order. */
  private counts = new Uint32Array(65_536);
  private readonly touched: number[] = [];
  private triples = new Uint32Array(3 * 65_536);
  private used = 0;
  private segments = 0;
  private docs = 0;
  private totalLength = 0;
  private readonly lenBuf = new Uint32Array(1);

  constructor(
    private readonly dir: string,
    private readonly analyzer: AnalyzerConfig,
    private readonly segmentPostings = SEGMENT_POSTINGS,
  ) {
    this.termOfWord = createWordAnalyzer(analyzer);
    this.docLen = new AppendFile(join(dir, BM25_FILES.docLen));
  }

  get size(): number {
    return this.docs;
  }

  /** Adds the next document (its number is the count added before it). */
  add(text: string): void {
    const d = this.docs++;
    const touched = this.touched;
    let length = 0;
    const words = this.words;
    words.reset(text.toLowerCase());
    while (words.next()) {
      const t = this.termOf(words);
      if (t < 0) continue;
      length++;
      const counts = this.counts;
      if (counts[t] === 0) touched.push(t);
      counts[t] = (counts[t] as number) + 1;
    }
    this.lenBuf[0] = length;
    this.docLen.writeArray(this.lenBuf);
    this.totalLength += length;
    // First-occurrence order, as a Map of the document's counts would iterate.
    for (const t of touched) {
      this.push(t, d, this.counts[t] as number);
      this.counts[t] = 0;
    }
    touched.length = 0;
    if (this.used / 3 >= this.segmentPostings) this.flushSegment();
  }

  /** The segment's term number of the scanner's word (numbered as first seen), or −1 for a stop word. */
  private termOf(w: WordScanner): number {
    let t = this.wordTerm.get(w.text, w.start, w.end, w.hash);
    if (t !== undefined) return t;
    const term = this.termOfWord(w.text.slice(w.start, w.end));
    if (term === null) t = -1;
    else {
      t = this.vocab.get(term);
      if (t === undefined) {
        t = this.vocab.size;
        this.vocab.set(term, t);
        this.counts = withRoom(this.counts, t + 1);
      }
    }
    this.wordTerm.set(w.text, w.start, w.end, w.hash, t);
    return t;
  }

  private push(t: number, d: number, n: number): void {
    this.triples = withRoom(this.triples, this.used + 3);
    this.triples[this.used++] = t;
    this.triples[this.used++] = d;
    this.triples[this.used++] = n;
  }

  /** Writes the segment: `seg-N.terms` (term \t df, sorted) and `seg-N.post` (docs then tfs per term). */
  private flushSegment(): void {
    if (this.used === 0) return;
    const vocab = this.vocab;
    const n = vocab.size;
    const offsets = new Uint32Array(n + 1);
    for (let i = 0; i < this.used; i += 3) {
      const t = (this.triples[i] as number) + 1;
      offsets[t] = (offsets[t] as number) + 1;
    }
    for (let t = 1; t <= n; t++) offsets[t] = (offsets[t] as number) + (offsets[t - 1] as number);
    const docs = new Uint32Array(this.used / 3);
    const tfs = new Uint32Array(this.used / 3);
    const fill = offsets.slice(0, n);
    for (let i = 0; i < this.used; i += 3) {
      const t = this.triples[i] as number;
      const at = fill[t] as number;
      fill[t] = at + 1;
      docs[at] = this.triples[i + 1] as number;
      tfs[at] = this.triples[i + 2] as number;
    }
    // The default sort compares UTF-16 code units, as `compareTerms` does, without a JS comparator.
    const sorted = [...vocab.keys()].sort();
    const base = join(this.dir, `seg-${this.segments++}`);
    const termsOut = new AppendFile(`${base}.terms`);
    const postOut = new AppendFile(`${base}.post`);
    try {
      for (const term of sorted) {
        const t = vocab.get(term) as number;
        const s = offsets[t] as number;
        const e = offsets[t + 1] as number;
        termsOut.writeString(`${term}\t${e - s}\n`);
        postOut.writeArray(docs.subarray(s, e));
        postOut.writeArray(tfs.subarray(s, e));
      }
      termsOut.close();
      postOut.close();
    } catch (error) {
      termsOut.abandon();
      postOut.abandon();
      throw error;
    }
    this.vocab = new Map();
    this.wordTerm = new WordTable();
    this.triples = new Uint32Array(3 * 65_536);
    this.used = 0;
  }

  /**
   * Flushes the last segment and closes the lengths file, leaving the sorted segments on disk for
   * `mergeBm25Segments` (which may join them with other writers' segments: an index built by shards).
   */
  finishSegments(): Bm25Segments {
    this.flushSegment();
    this.docLen.close();
    return { dir: this.dir, segments: this.segments, documents: this.docs, totalLength: this.totalLength };
  }

  /** Flushes the last segment, merges all of them and writes `bm25.json`; removes the segments. */
  finish(params: { k1: number; b: number }): Bm25DiskHeader {
    return mergeBm25Segments(this.dir, [this.finishSegments()], this.analyzer, params);
  }

  /** Closes open files after a failure (the folder is removed by the caller). */
  abandon(): void {
    this.docLen.abandon();
  }
}

/** What a `Bm25SegmentWriter` leaves in its folder before the merge. */
export interface Bm25Segments {
  dir: string;
  /** Segment files `seg-0` … `seg-(segments − 1)`, each sorted by term, documents numbered from 0. */
  segments: number;
  documents: number;
  totalLength: number;
}

/**
 * Merges the segments of one or more writers into one BM25 part in `partDir`: writer i's
 * documents follow writer i − 1's (their numbers shifted by the documents before), its lengths
 * are appended to `bm25.doclen`, and every term's postings are concatenated in writer and segment
 * order, which is document order: the part is the one a single writer given every document in
 * that order writes, byte for byte. Removes the segments (and joined length files) after.
 */
export function mergeBm25Segments(
  partDir: string,
  writers: readonly Bm25Segments[],
  analyzer: AnalyzerConfig,
  params: { k1: number; b: number },
): Bm25DiskHeader {
  const lengthsPath = join(partDir, BM25_FILES.docLen);
  const inPlace = writers.length === 1 && writers[0]?.dir === partDir;
  if (!inPlace) {
    const out = new AppendFile(lengthsPath);
    try {
      for (const w of writers) out.appendFile(join(w.dir, BM25_FILES.docLen));
      out.close();
    } catch (error) {
      out.abandon();
      throw error;
    }
  }
  let n = 0;
  let totalLength = 0;
  const segments: { base: string; docBase: number }[] = [];
  for (const w of writers) {
    for (let i = 0; i < w.segments; i++) segments.push({ base: join(w.dir, `seg-${i}`), docBase: n });
    n += w.documents;
    totalLength += w.totalLength;
  }
  const docLen = n ? readLengths(lengthsPath, n) : new Uint32Array(0);
  const avgdl = averageLength(totalLength, n);
  const merged = mergeSegments(partDir, segments, { n, avgdl, docLen, ...params });
  for (const { base } of segments) {
    rmSync(`${base}.terms`, { force: true });
    rmSync(`${base}.post`, { force: true });
  }
  if (!inPlace) for (const w of writers) rmSync(join(w.dir, BM25_FILES.docLen), { force: true });
  writeBlockIndex(join(partDir, BM25_FILES.blocks), merged.blocks);
  const header: Bm25DiskHeader = {
    format: BM25_FORMAT,
    analyzer,
    k1: params.k1,
    b: params.b,
    documents: n,
    totalLength,
    terms: merged.terms,
    blocks: merged.blocks.length,
  };
  const path = join(partDir, BM25_FILES.header);
  try {
    writeFileSync(path, `${JSON.stringify(header)}\n`);
  } catch (error) {
    throw writeFailure(path, error);
  }
  return header;
}

/** The `n` document lengths just written (the file is closed again: a build opens many parts). */
function readLengths(path: string, n: number): Uint32Array {
  const file = new PageFile(path);
  try {
    return file.uint32(0, n);
  } finally {
    file.close();
  }
}

interface SegmentHead {
  seg: number;
  term: string;
  df: number;
}

/**
 * The k-way merge of the segments' sorted term lists into `bm25.dict`, `bm25.post` (blocks of
 * `POSTING_BLOCK` postings) and `bm25.skips` (each block's bounds, for block-max pruning); a
 * segment's document numbers are shifted by its `docBase`.
 */
function mergeSegments(
  dir: string,
  segments: readonly { base: string; docBase: number }[],
  stats: { n: number; avgdl: number; docLen: Uint32Array; k1: number; b: number },
): { terms: number; blocks: DictBlock[] } {
  const count = segments.length;
  const termReaders = segments.map((s) => new SequentialReader(`${s.base}.terms`));
  const postReaders = segments.map((s) => new SequentialReader(`${s.base}.post`));
  const dict = new AppendFile(join(dir, BM25_FILES.dict));
  const post = new AppendFile(join(dir, BM25_FILES.postings));
  const skips = new AppendFile(join(dir, BM25_FILES.skips));
  const heap = new HeadHeap();
  const next = (seg: number) => {
    const line = termReaders[seg]!.line();
    if (line === null || line === '') return;
    const tab = line.lastIndexOf('\t');
    heap.push({ seg, term: line.slice(0, tab), df: Number(line.slice(tab + 1)) });
  };
  const blocks: DictBlock[] = [];
  let block: [string, number, number, number, number, number, number][] = [];
  const writeBlock = () => {
    if (!block.length) return;
    const at = dict.position;
    dict.writeString(`${JSON.stringify(block)}\n`);
    blocks.push([block[0]![0], at, dict.position - at]);
    block = [];
  };
  let terms = 0;
  try {
    for (let s = 0; s < count; s++) next(s);
    while (heap.size > 0) {
      const first = heap.pop()!;
      const heads = [first];
      while (heap.size > 0 && heap.peek()!.term === first.term) heads.push(heap.pop()!);
      heads.sort((a, b) => a.seg - b.seg);
      const parts = heads.map((h) => {
        const r = postReaders[h.seg]!;
        const docs = r.uint32(h.df);
        const shift = segments[h.seg]!.docBase;
        if (shift) for (let i = 0; i < docs.length; i++) docs[i] = (docs[i] as number) + shift;
        return { docs, tfs: r.uint32(h.df) };
      });
      const df = heads.reduce((s, h) => s + h.df, 0);
      const docs = parts.length === 1 ? parts[0]!.docs : new Uint32Array(df);
      const tfs = parts.length === 1 ? parts[0]!.tfs : new Uint32Array(df);
      if (parts.length > 1) {
        let filled = 0;
        for (const p of parts) {
          docs.set(p.docs, filled);
          tfs.set(p.tfs, filled);
          filled += p.docs.length;
        }
      }
      const at = post.position;
      const nb = blocksOf(df);
      const skip = nb > 1 ? new Uint32Array(4 * nb) : null;
      const skipImpacts = skip ? new Float32Array(skip.buffer, nb * 4, nb) : null;
      const idf = idfOf(stats.n, df);
      let maxImpact = 0;
      let maxTf = 0;
      let minDl = Number.POSITIVE_INFINITY;
      for (let blk = 0; blk < nb; blk++) {
        const from = blk * POSTING_BLOCK;
        const to = Math.min(df, from + POSTING_BLOCK);
        post.writeArray(docs.subarray(from, to));
        post.writeArray(tfs.subarray(from, to));
        let bImpact = 0;
        let bTf = 0;
        let bDl = Number.POSITIVE_INFINITY;
        for (let i = from; i < to; i++) {
          const tf = tfs[i] as number;
          const dl = stats.docLen[docs[i] as number] as number;
          const imp = impactOf(idf, tf, dl, stats.avgdl, stats.k1, stats.b);
          if (imp > bImpact) bImpact = imp;
          if (tf > bTf) bTf = tf;
          if (dl < bDl) bDl = dl;
        }
        if (skip && skipImpacts) {
          skip[blk] = docs[to - 1] as number;
          skipImpacts[blk] = bImpact;
          skip[2 * nb + blk] = bTf;
          skip[3 * nb + blk] = bDl;
        }
        if (bImpact > maxImpact) maxImpact = bImpact;
        if (bTf > maxTf) maxTf = bTf;
        if (bDl < minDl) minDl = bDl;
      }
      const skipsAt = skip ? skips.position : 0;
      if (skip) skips.writeArray(skip);
      block.push([first.term, df, at, maxImpact, maxTf, minDl, skipsAt]);
      terms++;
      if (block.length === DICT_BLOCK) writeBlock();
      for (const h of heads) next(h.seg);
    }
    writeBlock();
    dict.close();
    post.close();
    skips.close();
  } catch (error) {
    dict.abandon();
    post.abandon();
    skips.abandon();
    throw error;
  } finally {
    for (const r of [...termReaders, ...postReaders]) r.close();
  }
  return { terms, blocks };
}

/** A binary min-heap of segment heads by (term, segment). */
class HeadHeap {
  private items: SegmentHead[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): SegmentHead | undefined {
    return this.items[0];
  }
  private less(a: SegmentHead, b: SegmentHead): boolean {
    return a.term < b.term || (a.term === b.term && a.seg < b.seg);
  }
  push(h: SegmentHead): void {
    const a = this.items;
    a.push(h);
    let c = a.length - 1;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (!this.less(a[c]!, a[p]!)) break;
      [a[c], a[p]] = [a[p]!, a[c]!];
      c = p;
    }
  }
  pop(): SegmentHead | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        const r = l + 1;
        let m = c;
        if (l < a.length && this.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!)) m = r;
        if (m === c) break;
        [a[c], a[m]] = [a[m]!, a[c]!];
        c = m;
      }
    }
    return top;
  }
}
