import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { PageFile } from '../common/page-file.js';
import { TopK } from '../common/top-k.js';
import { createAnalyzer } from './analyzer.js';
import type { Bm25Hit, Bm25Params } from './bm25.js';
import { BM25_FILES, type Bm25DiskHeader, type DictEntry, idfOf, impactOf } from './bm25-disk-format.js';
import { compareTerms } from './bm25-segments.js';

/** One query term's postings, loaded for scoring. */
interface QueryList {
  q: number;
  idf: number;
  docs: Uint32Array;
  tfs: Uint32Array;
  /** An upper bound of q · impact over the list. */
  bound: number;
  pos: number;
}

/** Bounds are compared with this relative slack, so float rounding never prunes a document that could enter. */
const SLACK = 1 + 1e-9;

/**
 * A BM25 index read from disk by pages (`Bm25SegmentWriter` writes it): opening reads the small
 * header (block index of the term dictionary); a query reads one dictionary block and the
 * postings of each of its terms, and the document lengths once. Top-k is exact with MaxScore
 * dynamic pruning: lists are ordered by their largest impact, and documents found only in lists
 * whose bounds together cannot reach the current k-th score are never scored. A scored document
 * is summed in query-term order as `Bm25Index` sums it, so scores and ranking are bit-identical to
 * the in-memory index built from the same documents (`bm25-disk.test.ts` checks it).
 */
export class Bm25DiskIndex {
  readonly params: Bm25Params;
  private readonly dict: PageFile;
  private readonly postings: PageFile;
  private readonly analyze: (text: string) => string[];
  private readonly avgdl: number;
  private readonly blockCache = new Map<number, DictEntry[]>();
  private docLen: Uint32Array | undefined;
  private acc: Float64Array | undefined;

  private constructor(
    private readonly dir: string,
    readonly header: Bm25DiskHeader,
    params: Partial<Bm25Params>,
    private readonly idAt: (row: number) => string,
  ) {
    this.params = { k1: params.k1 ?? header.k1, b: params.b ?? header.b };
    this.dict = new PageFile(join(dir, BM25_FILES.dict));
    this.postings = new PageFile(join(dir, BM25_FILES.postings));
    this.analyze = createAnalyzer(header.analyzer);
    const n = header.documents;
    this.avgdl = n ? header.totalLength / n || 1 : 1;
  }

  /** Opens the BM25 files in `dir`; `idAt` names a document number (the passage table). */
  static open(dir: string, idAt: (row: number) => string, params: Partial<Bm25Params> = {}): Bm25DiskIndex {
    const path = join(dir, BM25_FILES.header);
    let header: Bm25DiskHeader;
    try {
      header = JSON.parse(readFileSync(path, 'utf8')) as Bm25DiskHeader;
    } catch (error) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `${path} is missing or not valid JSON.`,
        'Rebuild the index with `citegeist index --rebuild`.',
        { cause: error },
      );
    }
    if (header.format !== 3) {
      throw new CitegeistError(
        'INDEX_VERSION',
        `${path} has format ${String(header.format)}; this version reads 3.`,
        'Rebuild it with `citegeist index --rebuild`.',
      );
    }
    return new Bm25DiskIndex(dir, header, params, idAt);
  }

  get size(): number {
    return this.header.documents;
  }

  get analyzer(): Bm25DiskHeader['analyzer'] {
    return this.header.analyzer;
  }

  /** The dictionary entry of an analysed term, or undefined. */
  lookup(term: string): DictEntry | undefined {
    const { blocks } = this.header;
    let lo = 0;
    let hi = blocks.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareTerms(blocks[mid]![0], term) <= 0) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0) return undefined;
    const entries = this.block(at);
    lo = 0;
    hi = entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareTerms(entries[mid]![0], term);
      if (c === 0) return entries[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private block(i: number): DictEntry[] {
    let entries = this.blockCache.get(i);
    if (!entries) {
      const [, offset, length] = this.header.blocks[i]!;
      entries = JSON.parse(this.dict.read(offset, length).toString('utf8')) as DictEntry[];
      if (this.blockCache.size >= 4096) this.blockCache.clear();
      this.blockCache.set(i, entries);
    }
    return entries;
  }

  private lengths(): Uint32Array {
    this.docLen ??= this.size
      ? new PageFile(join(this.dir, BM25_FILES.docLen)).uint32(0, this.size)
      : new Uint32Array(0);
    return this.docLen;
  }

  /** The analysed query's terms found in the index, with their counts, in first-occurrence order. */
  private queryLists(query: string): QueryList[] {
    const counts = new Map<string, { entry: DictEntry; q: number }>();
    for (const tok of this.analyze(query)) {
      const seen = counts.get(tok);
      if (seen) seen.q++;
      else {
        const entry = this.lookup(tok);
        if (entry) counts.set(tok, { entry, q: 1 });
      }
    }
    const { k1, b } = this.params;
    const exactBounds = k1 === this.header.k1 && b === this.header.b;
    return [...counts.values()].map(({ entry, q }) => {
      const [, df, offset, maxImpact, maxTf, minDl] = entry;
      const idf = idfOf(this.size, df);
      const bytes = this.postings.read(offset, df * 8);
      const docs = new Uint32Array(bytes.buffer, bytes.byteOffset, df);
      const tfs = new Uint32Array(bytes.buffer, bytes.byteOffset + df * 4, df);
      // Impact grows with tf and falls with document length, so (max tf, min length) bounds it
      // whatever k1 and b; the recorded maximum is exact for the parameters it was built with.
      const bound = exactBounds ? maxImpact : impactOf(idf, maxTf, minDl, this.avgdl, k1, b) * (1 + 1e-6);
      return { q, idf, docs, tfs, bound: bound * q, pos: 0 };
    });
  }

  private impact(list: QueryList, p: number): number {
    const { k1, b } = this.params;
    const d = list.docs[p] as number;
    return impactOf(list.idf, list.tfs[p] as number, this.lengths()[d] as number, this.avgdl, k1, b);
  }

  /** The top k documents (number, id, score), best first; ties by lower number. MaxScore-pruned. */
  search(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    return this.hits(maxScoreTopK(lists, k, (l, p) => this.impact(l, p)));
  }

  /** The same ranking by scoring every posting (the reference the pruned search is tested against). */
  searchExhaustive(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    this.acc ??= new Float64Array(this.size);
    const acc = this.acc;
    const touched: number[] = [];
    for (const list of lists) {
      for (let p = 0; p < list.docs.length; p++) {
        const d = list.docs[p] as number;
        if (acc[d] === 0) touched.push(d);
        acc[d] = (acc[d] as number) + this.impact(list, p) * list.q;
      }
    }
    const top = new TopK(k);
    for (const d of touched) {
      top.push(d, acc[d] as number);
      acc[d] = 0;
    }
    return this.hits(top);
  }

  private hits(top: TopK): Bm25Hit[] {
    return top.sorted().map(({ index, score }) => ({ index, id: this.idAt(index), score }));
  }

  close(): void {
    this.dict.close();
    this.postings.close();
  }
}

/** First position ≥ `from` in `docs` whose document is ≥ d (galloping, then binary search). */
function advance(docs: Uint32Array, from: number, d: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < docs.length && (docs[hi] as number) < d) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, docs.length);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((docs[mid] as number) < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * MaxScore (Turtle & Flood 1995) over fully loaded lists. Lists sorted by bound ascending split
 * into non-essential ones (whose bounds sum below the k-th score) and essential ones; candidates
 * come only from essential lists, and a candidate whose essential part plus the non-essential
 * bounds cannot reach the k-th score is skipped. A candidate that may enter is scored in query
 * order, exactly as exhaustive scoring sums it.
 */
function maxScoreTopK(lists: QueryList[], k: number, impact: (l: QueryList, p: number) => number): TopK {
  const top = new TopK(k);
  const order = [...lists].sort((a, b) => a.bound - b.bound);
  const prefix = new Float64Array(order.length);
  let sum = 0;
  order.forEach((l, i) => {
    sum += l.bound;
    prefix[i] = sum;
  });
  let firstEssential = 0;
  const split = () => {
    const theta = top.threshold;
    while (firstEssential < order.length && (prefix[firstEssential] as number) * SLACK < theta)
      firstEssential++;
  };
  for (;;) {
    let d = Number.POSITIVE_INFINITY;
    for (let i = firstEssential; i < order.length; i++) {
      const l = order[i]!;
      if (l.pos < l.docs.length) d = Math.min(d, l.docs[l.pos] as number);
    }
    if (d === Number.POSITIVE_INFINITY) break;
    let partial = 0;
    for (let i = firstEssential; i < order.length; i++) {
      const l = order[i]!;
      if (l.pos < l.docs.length && l.docs[l.pos] === d) partial += impact(l, l.pos) * l.q;
    }
    const rest = firstEssential > 0 ? (prefix[firstEssential - 1] as number) : 0;
    if ((partial + rest) * SLACK >= top.threshold) {
      let s = 0;
      for (const l of lists) {
        l.pos = advance(l.docs, l.pos, d);
        if (l.pos < l.docs.length && l.docs[l.pos] === d) s += impact(l, l.pos) * l.q;
      }
      if (s >= top.threshold) {
        top.push(d, s);
        split();
      }
    }
    for (let i = firstEssential; i < order.length; i++) {
      const l = order[i]!;
      if (l.pos < l.docs.length && l.docs[l.pos] === d) l.pos++;
    }
    if (firstEssential >= order.length) break;
  }
  return top;
}
