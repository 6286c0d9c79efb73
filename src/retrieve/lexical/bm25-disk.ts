import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readIndexJson } from '../common/index-file.js';
import { PageFile } from '../common/page-file.js';
import { TopK } from '../common/top-k.js';
import { createAnalyzer, DEFAULT_ANALYZER } from './analyzer.js';
import type { Bm25Hit, Bm25Params } from './bm25.js';
import { BlockIndex } from './bm25-block-index.js';
import { type BlockList, blockMaxTopK, cursorFields, forEachPosting } from './bm25-block-max.js';
import {
  BM25_FILES,
  BM25_FORMAT,
  type Bm25DiskHeader,
  blocksOf,
  compareTerms,
  type DictEntry,
  POSTING_BLOCK,
  SKIP_RECORD,
} from './bm25-disk-format.js';
import { averageLength, BM25_DEFAULTS, idfOf, impactOf, impactWithNorm, lengthNorm } from './bm25-formula.js';

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
  /** Skip data, opened at the first term of more than one block. */
  skips: PageFile | undefined;
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
  /** The tombstoned rows in order (null: none). */
  deadRows: Uint32Array | null;
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
 * block-max dynamic pruning (`blockMaxTopK`): postings are read a block of 128 at a time, and
 * only the blocks whose bounds (the skip data) may lift a document over the current k-th score
 * are read and scored. A scored
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
  /** Bytes of postings and skip data read so far (what a query costs in reads). */
  bytesRead = 0;

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
      skips: undefined,
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
    const deadRows: number[] = [];
    if (dead) {
      for (let from = 0; from < this.rows; from += LENGTH_PAGE) {
        const page = dead.subarray(from, Math.min(this.rows, from + LENGTH_PAGE));
        if (!page.includes(1)) continue;
        const lengths = this.lengthPage(from >> LENGTH_PAGE_SHIFT);
        for (let i = 0; i < page.length; i++) {
          if (!page[i]) continue;
          deadRows.push(from + i);
          n--;
          total -= lengths[i] as number;
        }
      }
    }
    this.live = {
      n,
      avgdl: averageLength(total, n),
      dead,
      deadRows: deadRows.length ? Uint32Array.from(deadRows) : null,
    };
    return this.live;
  }

  /** Reads `length` bytes of a part's file, counted in `bytesRead`. */
  private read(file: PageFile, offset: number, length: number): Buffer {
    this.bytesRead += length;
    return file.read(offset, length);
  }

  /**
   * A query term's postings over every part in row order as a `BlockList`: the skip data of each
   * part (one read of 16 bytes per block, none for a term of one block) and a reader of blocks.
   * Tombstoned rows are left out; the term's live df (for its idf) counts them out by reading
   * only the blocks whose row range holds a tombstoned row. Bounds: the recorded block impacts
   * where `exact` (one part, nothing tombstoned, k1 and b as built), else impact at (max tf,
   * min length) of the block with the live statistics: impact grows with tf and falls with
   * length, so that bounds it whatever the statistics.
   */
  private listOf(term: string, q: number, exact: boolean): BlockList | null {
    const found: { part: OpenPart; df: number; offset: number; firstBlock: number; nb: number }[] = [];
    const entries: DictEntry[] = [];
    let blocks = 0;
    for (const part of this.parts) {
      const entry = this.lookup(part, term);
      if (!entry) continue;
      const nb = blocksOf(entry[1]);
      found.push({ part, df: entry[1], offset: entry[2], firstBlock: blocks, nb });
      entries.push(entry);
      blocks += nb;
    }
    if (found.length === 0) return null;
    const { n, avgdl, deadRows } = this.stats();
    const dead = deadRows ? this.stats().dead : null;
    const { k1, b } = this.params;
    const last = new Float64Array(blocks);
    const impacts = new Float64Array(blocks);
    const tfMax = new Float64Array(blocks);
    const dlMin = new Float64Array(blocks);
    const owner = new Int32Array(blocks);
    found.forEach((f, j) => {
      const entry = entries[j]!;
      owner.fill(j, f.firstBlock, f.firstBlock + f.nb);
      if (f.nb === 1) {
        // A list of one block has no skip record: the entry's bounds, and the part's last row.
        last[f.firstBlock] = f.part.base + f.part.rows - 1;
        impacts[f.firstBlock] = entry[3];
        tfMax[f.firstBlock] = entry[4];
        dlMin[f.firstBlock] = entry[5];
        return;
      }
      f.part.skips ??= new PageFile(join(f.part.dir, BM25_FILES.skips));
      const bytes = this.read(f.part.skips, entry[6], SKIP_RECORD * f.nb);
      const words = new Uint32Array(bytes.buffer, bytes.byteOffset, 4 * f.nb);
      const floats = new Float32Array(bytes.buffer, bytes.byteOffset, 4 * f.nb);
      for (let i = 0; i < f.nb; i++) {
        last[f.firstBlock + i] = (words[i] as number) + f.part.base;
        impacts[f.firstBlock + i] = floats[f.nb + i] as number;
        tfMax[f.firstBlock + i] = words[2 * f.nb + i] as number;
        dlMin[f.firstBlock + i] = words[3 * f.nb + i] as number;
      }
    });
    // Reads blocks [from, from + count) of one part in one read (consecutive blocks are contiguous).
    let chunk: { j: number; from: number; to: number; buf: Buffer } | undefined;
    let ahead = 1;
    let lastLoaded = -2;
    const readBlock = (i: number): { docs: Uint32Array; tfs: Uint32Array } => {
      const j = owner[i] as number;
      const f = found[j]!;
      const local = i - f.firstBlock;
      if (!chunk || chunk.j !== j || local < chunk.from || local >= chunk.to) {
        // Blocks read in sequence are read ahead, more each time (up to 32 KB).
        ahead = i === lastLoaded + 1 ? Math.min(ahead * 2, 32) : 1;
        const to = Math.min(f.nb, local + ahead);
        const from = local * POSTING_BLOCK;
        const end = Math.min(f.df, to * POSTING_BLOCK);
        chunk = {
          j,
          from: local,
          to,
          buf: this.read(f.part.postings, f.offset + from * 8, (end - from) * 8),
        };
      }
      lastLoaded = i;
      const len = Math.min(POSTING_BLOCK, f.df - local * POSTING_BLOCK);
      const at = chunk.buf.byteOffset + (local - chunk.from) * POSTING_BLOCK * 8;
      let docs = new Uint32Array(chunk.buf.buffer, at, len);
      let tfs = new Uint32Array(chunk.buf.buffer, at + len * 4, len);
      const base = f.part.base;
      if (base || dead) {
        const d2 = new Uint32Array(len);
        const t2 = new Uint32Array(len);
        let m = 0;
        for (let p = 0; p < len; p++) {
          const d = (docs[p] as number) + base;
          if (dead?.[d]) continue;
          d2[m] = d;
          t2[m] = tfs[p] as number;
          m++;
        }
        docs = d2.subarray(0, m);
        tfs = t2.subarray(0, m);
      }
      return { docs, tfs };
    };
    let df = found.reduce((sum, f) => sum + f.df, 0);
    let load = readBlock;
    if (deadRows) {
      // Blocks whose rows hold a tombstone are read now (to count the live df) and kept.
      const kept = new Map<number, { docs: Uint32Array; tfs: Uint32Array }>();
      for (const f of found) {
        for (let i = f.firstBlock; i < f.firstBlock + f.nb; i++) {
          const from = i === f.firstBlock ? f.part.base : (last[i - 1] as number) + 1;
          if (countIn(deadRows, from, last[i] as number) === 0) continue;
          const block = readBlock(i);
          df -= Math.min(POSTING_BLOCK, f.df - (i - f.firstBlock) * POSTING_BLOCK) - block.docs.length;
          kept.set(i, block);
        }
      }
      if (df === 0) return null;
      load = (i) => kept.get(i) ?? readBlock(i);
    }
    const idf = idfOf(n, df);
    const bound = new Float64Array(blocks);
    for (let i = 0; i < blocks; i++) {
      const max = exact
        ? (impacts[i] as number)
        : impactOf(idf, tfMax[i] as number, dlMin[i] as number, avgdl, k1, b) * (1 + 1e-6);
      bound[i] = max * q;
    }
    return { q, idf, blocks, last, bound, load, ...cursorFields() };
  }

  /** The analysed query's terms found in the index, with their counts, in first-occurrence order. */
  private queryLists(query: string): BlockList[] {
    const counts = new Map<string, number>();
    for (const tok of this.analyze(query)) counts.set(tok, (counts.get(tok) ?? 0) + 1);
    const { n } = this.stats();
    const { k1, b } = this.params;
    const header = this.parts[0]?.header;
    // A part's recorded impacts are exact for its own statistics and parameters: for the whole
    // index only when it is the one part, nothing is tombstoned and k1, b are as built.
    const exact = this.parts.length === 1 && n === this.rows && k1 === header?.k1 && b === header?.b;
    const lists: BlockList[] = [];
    for (const [term, q] of counts) {
      const list = this.listOf(term, q, exact);
      if (list) lists.push(list);
    }
    return lists;
  }

  /**
   * A posting's impact, its document's length read by pages (`lengthPage`): its `lengthNorm` is
   * computed per posting, the same value a table of norms would hold, so scores do not change.
   */
  private impactOf(): (list: BlockList, p: number) => number {
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

  /** The top k documents (number, id, score), best first; ties by lower number. Block-max pruned. */
  search(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    return this.hits(blockMaxTopK(lists, k, this.impactOf()));
  }

  /** The same ranking by scoring every posting (the reference the pruned search is tested against). */
  searchExhaustive(query: string, k: number): Bm25Hit[] {
    const lists = this.queryLists(query);
    if (k <= 0 || lists.length === 0) return [];
    this.acc ??= new Float64Array(this.rows);
    const acc = this.acc;
    const touched: number[] = [];
    const impact = this.impactOf();
    forEachPosting(lists, (list, p) => {
      const d = list.docs[p] as number;
      if (acc[d] === 0) touched.push(d);
      acc[d] = (acc[d] as number) + impact(list, p) * list.q;
    });
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
      part.skips?.close();
      part.blocks?.close();
      part.docLen?.close();
    }
  }
}

/** How many of the sorted rows lie in [from, to]. */
function countIn(rows: Uint32Array, from: number, to: number): number {
  const lower = (x: number) => {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((rows[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return lower(to + 1) - lower(from);
}
