import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readIndexJson } from '../common/index-file.js';
import { PageFile } from '../common/page-file.js';
import { TopK } from '../common/top-k.js';
import { createAnalyzer, DEFAULT_ANALYZER } from './analyzer.js';
import type { Bm25Hit, Bm25Params } from './bm25.js';
import { BlockIndex } from './bm25-block-index.js';
import {
  BM25_FILES,
  BM25_FORMAT,
  type Bm25DiskHeader,
  compareTerms,
  type DictEntry,
} from './bm25-disk-format.js';
import { averageLength, BM25_DEFAULTS, idfOf, impactOf, impactWithNorm, lengthNorm } from './bm25-formula.js';

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

/** One part of a BM25 index: the files `Bm25SegmentWriter` wrote for rows base..base+rows−1. */
export interface Bm25PartLocation {
  dir: string;
  /** Row number of its first document in the whole index. */
  base: number;
  /** Its documents (rows). */
  rows: number;
}

interface OpenPart extends Bm25PartLocation {
  header: Bm25DiskHeader;
  /** The dictionary's block index, opened at the first lookup and searched by page reads. */
  blocks: BlockIndex | undefined;
  dict: PageFile;
  postings: PageFile;
  /** Document lengths, opened when a page of them is first needed. */
  docLen: PageFile | undefined;
  /** Parsed dictionary blocks by byte offset. */
  blockCache: Map<number, DictEntry[]>;
}

/** Collection statistics over the live rows, computed at the first query. */
interface LiveStats {
  n: number;
  avgdl: number;
  dead: Uint8Array | null;
}

/** Rows per page of document lengths read at once (16 KB), and the shift and mask that find them. */
const LENGTH_PAGE_SHIFT = 12;
const LENGTH_PAGE = 1 << LENGTH_PAGE_SHIFT;
const LENGTH_PAGE_MASK = LENGTH_PAGE - 1;

function readHeader(dir: string): Bm25DiskHeader {
  const path = join(dir, BM25_FILES.header);
  const header = readIndexJson<Bm25DiskHeader>(path);
  if (header.format !== BM25_FORMAT) {
    throw new CitegeistError(
      'INDEX_VERSION',
      `${path} has format ${String(header.format)}; this version reads ${BM25_FORMAT}.`,
      'Rebuild it with `citegeist index --rebuild`.',
    );
  }
  return header;
}

/**
 * A BM25 index read from disk by pages (`Bm25SegmentWriter` writes each part): opening reads each
 * part's small header; a query binary-searches each part's block index by page reads, reads one
 * dictionary block and the postings of each of its terms per part, and the lengths of the
 * documents it scores by pages. An index updated
 * in place has several parts (one per build or update) and may have tombstoned rows (papers
 * removed or replaced): a term's postings are those of every part in row order without the
 * tombstoned rows, and N, df and the average length are counted over the live rows, so every
 * score is bit-identical to a rebuild's (`incremental-index.test.ts`). Top-k is exact with
 * MaxScore dynamic pruning: lists are ordered by their largest impact, and documents found only in
 * lists whose bounds together cannot reach the current k-th score are never scored. A scored
 * document is summed in query-term order as `Bm25Index` sums it, so scores and ranking are
 * bit-identical to the in-memory index built from the same documents (`bm25-disk.test.ts`).
 */
export class Bm25DiskIndex {
  readonly params: Bm25Params;
  private readonly parts: OpenPart[];
  private readonly analyze: (text: string) => string[];
  private readonly rows: number;
  private live: LiveStats | undefined;
  /** Each row's document length, by pages of `LENGTH_PAGE` rows read as queries touch them. */
  private readonly lengthPages: (Uint32Array | undefined)[] = [];
  private acc: Float64Array | undefined;

  private constructor(
    parts: Bm25PartLocation[],
    params: Partial<Bm25Params>,
    private readonly idAt: (row: number) => string,
    private readonly deadOf: () => Uint8Array | null,
  ) {
    this.parts = parts.map((p) => ({
      ...p,
      header: readHeader(p.dir),
      blocks: undefined,
      dict: new PageFile(join(p.dir, BM25_FILES.dict)),
      postings: new PageFile(join(p.dir, BM25_FILES.postings)),
      docLen: undefined,
      blockCache: new Map(),
    }));
    const first = this.parts[0]?.header;
    this.params = {
      k1: params.k1 ?? first?.k1 ?? BM25_DEFAULTS.k1,
      b: params.b ?? first?.b ?? BM25_DEFAULTS.b,
    };
    this.analyze = createAnalyzer(first?.analyzer ?? DEFAULT_ANALYZER);
    this.rows = parts.reduce((sum, p) => sum + p.rows, 0);
  }

  /** Opens the BM25 files in `dir` (one part); `idAt` names a document number (the passage table). */
  static open(dir: string, idAt: (row: number) => string, params: Partial<Bm25Params> = {}): Bm25DiskIndex {
    const rows = readHeader(dir).documents;
    return new Bm25DiskIndex([{ dir, base: 0, rows }], params, idAt, () => null);
  }

  /** Opens the parts of an index; `dead` gives the tombstoned rows (null: none), read at the first query. */
  static openParts(
    parts: Bm25PartLocation[],
    rows: { idAt: (row: number) => string; dead?: () => Uint8Array | null },
    params: Partial<Bm25Params> = {},
  ): Bm25DiskIndex {
    return new Bm25DiskIndex(parts, params, rows.idAt, rows.dead ?? (() => null));
  }

  /** Documents a query can return (tombstoned rows not counted). */
  get size(): number {
    return this.stats().n;
  }

  get analyzer(): Bm25DiskHeader['analyzer'] {
    return this.parts[0]?.header.analyzer ?? DEFAULT_ANALYZER;
  }

  /** The dictionary entry of an analysed term in one part, or undefined. */
  private lookup(part: OpenPart, term: string): DictEntry | undefined {
    part.blocks ??= new BlockIndex(join(part.dir, BM25_FILES.blocks), part.header.blocks);
    const range = part.blocks.find(term);
    if (!range) return undefined;
    const entries = this.block(part, range.offset, range.length);
    let lo = 0;
    let hi = entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareTerms(entries[mid]![0], term);
      if (c === 0) return entries[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  private block(part: OpenPart, offset: number, length: number): DictEntry[] {
    let entries = part.blockCache.get(offset);
    if (!entries) {
      entries = JSON.parse(part.dict.read(offset, length).toString('utf8')) as DictEntry[];
      if (part.blockCache.size >= 4096) part.blockCache.clear();
      part.blockCache.set(offset, entries);
    }
    return entries;
  }

  /** The document lengths of page `p` (rows p·LENGTH_PAGE…), read from the parts that hold them once. */
  private lengthPage(p: number): Uint32Array {
    let page = this.lengthPages[p];
    if (page) return page;
    const from = p << LENGTH_PAGE_SHIFT;
    const to = Math.min(this.rows, from + LENGTH_PAGE);
    page = new Uint32Array(to - from);
    for (const part of this.parts) {
      const start = Math.max(from, part.base);
      const end = Math.min(to, part.base + part.rows);
      if (start >= end) continue;
      part.docLen ??= new PageFile(join(part.dir, BM25_FILES.docLen));
      page.set(part.docLen.uint32((start - part.base) * 4, end - start), start - from);
    }
    this.lengthPages[p] = page;
    return page;
  }

  /**
   * N and the average length over the live rows, at the first query. Without tombstones they come
   * from the parts' headers (no document length is read); with them, the lengths of the
   * tombstoned rows are read and subtracted (integers: exact, as a rebuild counts them).
   */
  private stats(): LiveStats {
    if (this.live) return this.live;
    const dead = this.deadOf();
    let n = this.rows;
    let total = this.parts.reduce((sum, p) => sum + p.header.totalLength, 0);
    if (dead) {
      for (let from = 0; from < this.rows; from += LENGTH_PAGE) {
        const page = dead.subarray(from, Math.min(this.rows, from + LENGTH_PAGE));
        if (!page.includes(1)) continue;
        const lengths = this.lengthPage(from >> LENGTH_PAGE_SHIFT);
        for (let i = 0; i < page.length; i++) {
          if (!page[i]) continue;
          n--;
          total -= lengths[i] as number;
        }
      }
    }
    this.live = { n, avgdl: averageLength(total, n), dead };
    return this.live;
  }

  /** A term's postings over every part in row order, tombstoned rows left out. */
  private postingsOf(
    term: string,
  ): { docs: Uint32Array; tfs: Uint32Array; maxTf: number; minDl: number; maxImpact: number } | null {
    const found: { part: OpenPart; entry: DictEntry }[] = [];
    for (const part of this.parts) {
      const entry = this.lookup(part, term);
      if (entry) found.push({ part, entry });
    }
    if (found.length === 0) return null;
    const dead = this.stats().dead;
    if (found.length === 1 && found[0]!.part.base === 0 && !dead) {
      // The usual index (one part, nothing tombstoned): the postings as read, without a copy.
      const [, df, offset, maxImpact, maxTf, minDl] = found[0]!.entry;
      const bytes = found[0]!.part.postings.read(offset, df * 8);
      const docs = new Uint32Array(bytes.buffer, bytes.byteOffset, df);
      const tfs = new Uint32Array(bytes.buffer, bytes.byteOffset + df * 4, df);
      return { docs, tfs, maxTf, minDl, maxImpact };
    }
    const total = found.reduce((sum, f) => sum + f.entry[1], 0);
    const docs = new Uint32Array(total);
    const tfs = new Uint32Array(total);
    let at = 0;
    let maxTf = 0;
    let minDl = Number.POSITIVE_INFINITY;
    for (const { part, entry } of found) {
      const [, df, offset, , tfMax, dlMin] = entry;
      const bytes = part.postings.read(offset, df * 8);
      const pd = new Uint32Array(bytes.buffer, bytes.byteOffset, df);
      const pt = new Uint32Array(bytes.buffer, bytes.byteOffset + df * 4, df);
      for (let i = 0; i < df; i++) {
        const d = (pd[i] as number) + part.base;
        if (dead?.[d]) continue;
        docs[at] = d;
        tfs[at] = pt[i] as number;
        at++;
      }
      maxTf = Math.max(maxTf, tfMax);
      minDl = Math.min(minDl, dlMin);
    }
    if (at === 0) return null;
    const one = found.length === 1 && at === total ? found[0]!.entry[3] : Number.NaN;
    return { docs: docs.subarray(0, at), tfs: tfs.subarray(0, at), maxTf, minDl, maxImpact: one };
  }

  /** The analysed query's terms found in the index, with their counts, in first-occurrence order. */
  private queryLists(query: string): QueryList[] {
    const counts = new Map<string, number>();
    for (const tok of this.analyze(query)) counts.set(tok, (counts.get(tok) ?? 0) + 1);
    const { n, avgdl } = this.stats();
    const { k1, b } = this.params;
    const header = this.parts[0]?.header;
    // A part's recorded largest impact is exact for its own statistics and parameters: for the
    // whole index only when it is the one part, nothing is tombstoned and k1, b are as built.
    const exactBounds = this.parts.length === 1 && n === this.rows && k1 === header?.k1 && b === header?.b;
    const lists: QueryList[] = [];
    for (const [term, q] of counts) {
      const p = this.postingsOf(term);
      if (!p) continue;
      const idf = idfOf(n, p.docs.length);
      // Impact grows with tf and falls with document length, so (max tf, min length) bounds it
      // whatever the statistics; the recorded maximum is exact where `exactBounds` holds.
      const bound =
        exactBounds && !Number.isNaN(p.maxImpact)
          ? p.maxImpact
          : impactOf(idf, p.maxTf, p.minDl, avgdl, k1, b) * (1 + 1e-6);
      lists.push({ q, idf, docs: p.docs, tfs: p.tfs, bound: bound * q, pos: 0 });
    }
    return lists;
  }

  /**
   * A posting's impact, its document's length read by pages (`lengthPage`): its `lengthNorm` is
   * computed per posting, the same value a table of norms would hold, so scores do not change.
   */
  private impactOf(): (list: QueryList, p: number) => number {
    const pages = this.lengthPages;
    const { avgdl } = this.stats();
    const { k1, b } = this.params;
    return (list, p) => {
      const d = list.docs[p] as number;
      const page = pages[d >>> LENGTH_PAGE_SHIFT] ?? this.lengthPage(d >>> LENGTH_PAGE_SHIFT);
      const norm = lengthNorm(page[d & LENGTH_PAGE_MASK] as number, avgdl, k1, b);
      return impactWithNorm(list.idf, list.tfs[p] as number, norm, k1);
    };
  }

  /** The top k documents (number, id, score), best first; ties by lower number. MaxScore-pruned. */
  search(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    return this.hits(maxScoreTopK(lists, k, this.impactOf()));
  }

  /** The same ranking by scoring every posting (the reference the pruned search is tested against). */
  searchExhaustive(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    this.acc ??= new Float64Array(this.rows);
    const acc = this.acc;
    const touched: number[] = [];
    const impact = this.impactOf();
    for (const list of lists) {
      for (let p = 0; p < list.docs.length; p++) {
        const d = list.docs[p] as number;
        if (acc[d] === 0) touched.push(d);
        acc[d] = (acc[d] as number) + impact(list, p) * list.q;
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
    for (const part of this.parts) {
      part.dict.close();
      part.postings.close();
      part.blocks?.close();
      part.docLen?.close();
    }
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
