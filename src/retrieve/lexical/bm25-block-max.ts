import { TopK } from '../common/top-k.js';

/**
 * One query term's postings over the whole index as a sequence of blocks, read lazily: the skip
 * data (each block's last document and impact bound) is in memory, a block's documents and term
 * frequencies are read only when a candidate may fall in it.
 */
export interface BlockList {
  /** The term's count in the query. */
  q: number;
  idf: number;
  /** Blocks of the list, in document order. */
  blocks: number;
  /** Each block's last document: block i holds the postings in (last[i − 1], last[i]] (an upper bound for the last). */
  last: Float64Array;
  /** q × an upper bound of the impacts in each block. */
  bound: Float64Array;
  /** Reads block i: its documents (tombstoned rows removed) and their term frequencies. */
  load(i: number): { docs: Uint32Array; tfs: Uint32Array };
  /** Cursor: the current block, whether it is read, its postings and the position in them. */
  blk: number;
  loaded: boolean;
  docs: Uint32Array;
  tfs: Uint32Array;
  pos: number;
  /** The window's bound (scratch) and the candidate it last matched, with the value it adds. */
  wb: number;
  hit: number;
  c: number;
}

/** Bounds are compared with this relative slack, so float rounding never prunes a document that could enter. */
const SLACK = 1 + 1e-9;

const EMPTY = new Uint32Array(0);

/** A cursor at the list's first block, nothing read yet. */
export function cursorFields(): Pick<
  BlockList,
  'blk' | 'loaded' | 'docs' | 'tfs' | 'pos' | 'wb' | 'hit' | 'c'
> {
  return { blk: 0, loaded: false, docs: EMPTY, tfs: EMPTY, pos: 0, wb: 0, hit: -1, c: 0 };
}

/** Moves to the first block that may hold a document ≥ d, without reading; false when none is left. */
function shallow(l: BlockList, d: number): boolean {
  let b = l.blk;
  while (b < l.blocks && (l.last[b] as number) < d) b++;
  if (b !== l.blk) {
    l.blk = b;
    l.loaded = false;
  }
  return b < l.blocks;
}

/** Reads the current block if it is not read yet. */
function ensure(l: BlockList): void {
  if (l.loaded) return;
  const { docs, tfs } = l.load(l.blk);
  l.docs = docs;
  l.tfs = tfs;
  l.pos = 0;
  l.loaded = true;
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
 * Block-Max MaxScore (MaxScore of Turtle & Flood 1995 with block bounds, after Ding & Suel 2011
 * and Mallia et al. 2017), exact. Documents are taken in windows: a window runs from the next
 * document to consider to the nearest end of any list's current block, so within it each list
 * has one block and one bound. Lists sorted by that bound split into non-essential ones (whose
 * bounds together cannot reach the k-th score) and essential ones; a window with no essential
 * list is skipped without reading a block. Candidates come from the essential lists' blocks; a
 * candidate is checked against its essential impacts plus the non-essential bounds, which are
 * replaced by the true impacts one list at a time (a non-essential block is read only then), and
 * dropped as soon as it cannot reach the k-th score. A candidate that may enter is summed in query
 * order (`lists` order, impact × q), exactly as exhaustive scoring sums it, so scores are
 * bit-identical. Documents are taken in increasing order, so a later document that only ties the
 * k-th score can never enter (ties go to the lower number) and pruning below it is exact.
 */
export function blockMaxTopK(
  lists: BlockList[],
  k: number,
  impact: (l: BlockList, p: number) => number,
): TopK {
  const top = new TopK(k);
  const floor = seedThreshold(lists, k, impact);
  const n = lists.length;
  const order = [...lists];
  const prefix = new Float64Array(n);
  /** The lists holding the current candidate. */
  const held: BlockList[] = [];
  let nh = 0;
  let upTo = 0;
  for (;;) {
    // The window [upTo, end]: every list's current block covers it.
    let end = Number.POSITIVE_INFINITY;
    for (const l of lists) {
      if (shallow(l, upTo)) {
        l.wb = l.bound[l.blk] as number;
        end = Math.min(end, l.last[l.blk] as number);
      } else l.wb = 0;
    }
    if (end === Number.POSITIVE_INFINITY) break;
    // Insertion sort by window bound (a handful of lists).
    for (let i = 1; i < n; i++) {
      const x = order[i]!;
      let j = i - 1;
      while (j >= 0 && order[j]!.wb > x.wb) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = x;
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += order[i]!.wb;
      prefix[i] = sum;
    }
    let firstEssential = 0;
    let theta = Math.max(floor, top.threshold);
    while (firstEssential < n && (prefix[firstEssential] as number) * SLACK < theta) firstEssential++;
    for (let i = firstEssential; i < n; i++) {
      const l = order[i]!;
      if (l.blk >= l.blocks) continue;
      ensure(l);
      l.pos = advance(l.docs, l.pos, upTo);
    }
    while (firstEssential < n) {
      let d = Number.POSITIVE_INFINITY;
      for (let i = firstEssential; i < n; i++) {
        const l = order[i]!;
        if (l.loaded && l.blk < l.blocks && l.pos < l.docs.length) d = Math.min(d, l.docs[l.pos] as number);
      }
      if (d > end) break;
      let partial = 0;
      for (let i = firstEssential; i < n; i++) {
        const l = order[i]!;
        if (l.loaded && l.blk < l.blocks && l.pos < l.docs.length && l.docs[l.pos] === d) {
          l.c = impact(l, l.pos) * l.q;
          l.hit = d;
          held[nh++] = l;
          partial += l.c;
        }
      }
      // Non-essential lists, largest bound first: each bound is replaced by the true impact.
      let alive = true;
      for (let i = firstEssential - 1; i >= 0; i--) {
        if ((partial + (prefix[i] as number)) * SLACK < theta) {
          alive = false;
          break;
        }
        const l = order[i]!;
        if (l.blk >= l.blocks) continue;
        ensure(l);
        l.pos = advance(l.docs, l.pos, d);
        if (l.pos < l.docs.length && l.docs[l.pos] === d) {
          l.c = impact(l, l.pos) * l.q;
          l.hit = d;
          held[nh++] = l;
          partial += l.c;
        }
      }
      if (alive && partial * SLACK >= theta) {
        let s = 0;
        for (const l of lists) if (l.hit === d) s += l.c;
        if (s >= theta) {
          top.push(d, s);
          theta = Math.max(floor, top.threshold);
          while (firstEssential < n && (prefix[firstEssential] as number) * SLACK < theta) firstEssential++;
        }
      }
      // Every list that holds d (all essential ones among them) moves past it. (A list's `hit`
      // stays: candidates only grow, so it never equals a later one.)
      for (let j = 0; j < nh; j++) (held[j] as BlockList).pos++;
      nh = 0;
    }
    if (end >= 0xffffffff) break;
    upTo = end + 1;
  }
  return top;
}

/**
 * A lower bound of the k-th best score, to prune with from the start: every impact is positive,
 * so a document scores at least its impact in any one list, and the k-th largest q × impact in
 * one block of one list is at most the k-th best score (k documents reach it). Each list's block
 * of largest bound is read for it (a block the search would most likely read anyway). A document
 * scoring exactly the bound may still enter (pruning and entry compare as with the k-th score).
 */
function seedThreshold(lists: BlockList[], k: number, impact: (l: BlockList, p: number) => number): number {
  let floor = Number.NEGATIVE_INFINITY;
  for (const l of lists) {
    let best = -1;
    for (let i = 0; i < l.blocks; i++)
      if (best < 0 || (l.bound[i] as number) > (l.bound[best] as number)) best = i;
    if (best < 0 || (l.bound[best] as number) <= floor) continue;
    l.blk = best;
    l.loaded = false;
    ensure(l);
    if (l.docs.length >= k) {
      const values = new Float64Array(l.docs.length);
      for (let p = 0; p < l.docs.length; p++) values[p] = impact(l, p) * l.q;
      values.sort();
      floor = Math.max(floor, values[values.length - k] as number);
    }
    l.blk = 0;
    l.loaded = false;
  }
  return floor;
}

/** Calls `each(list, p)` for every posting of every list, reading every block (the exhaustive reference). */
export function forEachPosting(lists: BlockList[], each: (l: BlockList, p: number) => void): void {
  for (const l of lists) {
    for (l.blk = 0; l.blk < l.blocks; l.blk++) {
      l.loaded = false;
      ensure(l);
      for (let p = 0; p < l.docs.length; p++) each(l, p);
    }
  }
}
