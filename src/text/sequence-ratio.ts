/**
 * A port of Python's `difflib.SequenceMatcher(None, a, b)` on strings (one element per Unicode code
 * point, as Python indexes `str`), for `ratio()` and `get_matching_blocks()`.
 *
 * Faithful to CPython 3.11, including the "autojunk" popularity heuristic: when `b` has 200 or more
 * elements, every element that occurs more than `1 + floor(len(b) / 100)` times in `b` is "popular"
 * and removed from the `b2j` index (it can still be absorbed when a match is extended at its ends,
 * exactly as in `find_longest_match`). No `isjunk` function is supported (the ResearchQA harness
 * passes `None`).
 *
 * Speed: characters are mapped to dense ids, `b2j` is a CSR array, and the `j2len` dicts of the
 * Python code are two typed arrays with generation stamps, so nothing is allocated per row.
 */

/** One matching block: `a[a .. a+size)` equals `b[b .. b+size)`, as in difflib's `Match`. */
export interface MatchingBlock {
  readonly a: number;
  readonly b: number;
  readonly size: number;
}

/** Code points of a string (Python's view of a `str`). */
function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return n === text.length ? out : out.slice(0, n);
}

/**
 * Code point → dense id for one pair. BMP code points use a shared table validated by a stamp (no
 * clearing between calls); others use a Map. Calls are synchronous, so sharing the table is safe.
 */
const BMP_IDS = new Int32Array(0x10000);
const BMP_STAMP = new Int32Array(0x10000);
let stampCounter = 0;

class IdMap {
  private readonly stamp: number;
  private readonly astral = new Map<number, number>();
  size = 0;

  constructor() {
    stampCounter = (stampCounter + 1) | 0;
    if (stampCounter === 0) {
      BMP_STAMP.fill(0);
      stampCounter = 1;
    }
    this.stamp = stampCounter;
  }

  add(cp: number): number {
    if (cp < 0x10000) {
      if (BMP_STAMP[cp] === this.stamp) return BMP_IDS[cp]!;
      BMP_STAMP[cp] = this.stamp;
      BMP_IDS[cp] = this.size;
      return this.size++;
    }
    let id = this.astral.get(cp);
    if (id === undefined) {
      id = this.size++;
      this.astral.set(cp, id);
    }
    return id;
  }

  get(cp: number): number {
    if (cp < 0x10000) return BMP_STAMP[cp] === this.stamp ? BMP_IDS[cp]! : -1;
    return this.astral.get(cp) ?? -1;
  }
}

/** The matcher state for one pair: ids of a and b, and b2j as a CSR index without popular ids. */
class Matcher {
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** b2j for id x: positions `pos[start[x] .. start[x+1])`, ascending; empty for popular ids. */
  private readonly start: Int32Array;
  private readonly pos: Int32Array;
  private prevLen: Int32Array;
  private prevStamp: Int32Array;
  private curLen: Int32Array;
  private curStamp: Int32Array;
  private row = 0;

  constructor(aText: string, bText: string, autojunk: boolean) {
    const aCp = codePoints(aText);
    const bCp = codePoints(bText);
    const ids = new IdMap();
    const b = new Int32Array(bCp.length);
    for (let j = 0; j < bCp.length; j++) b[j] = ids.add(bCp[j]!);
    const a = new Int32Array(aCp.length);
    for (let i = 0; i < aCp.length; i++) a[i] = ids.get(aCp[i]!);
    this.a = a;
    this.b = b;
    const size = ids.size;
    const counts = new Int32Array(size + 1);
    for (let j = 0; j < b.length; j++) counts[b[j]! + 1]!++;
    if (autojunk && b.length >= 200) {
      const ntest = Math.floor(b.length / 100) + 1;
      for (let x = 1; x < counts.length; x++) if (counts[x]! > ntest) counts[x] = 0;
    }
    const start = new Int32Array(size + 1);
    for (let x = 1; x <= size; x++) start[x] = start[x - 1]! + counts[x]!;
    const pos = new Int32Array(start[size]!);
    const fill = start.slice(0, size);
    for (let j = 0; j < b.length; j++) {
      const x = b[j]!;
      if (fill[x]! < start[x + 1]!) pos[fill[x]!++] = j;
    }
    this.start = start;
    this.pos = pos;
    const n = b.length + 1;
    this.prevLen = new Int32Array(n);
    this.prevStamp = new Int32Array(n);
    this.curLen = new Int32Array(n);
    this.curStamp = new Int32Array(n);
  }

  /** difflib `find_longest_match(alo, ahi, blo, bhi)`; returns [i, j, k]. */
  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
    const { a, b, start, pos } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    // Stamps: an entry of j2len is valid only if written in the previous row of this call.
    for (let i = alo; i < ahi; i++) {
      const row = ++this.row;
      const x = a[i]!;
      if (x >= 0) {
        const prevLen = this.prevLen;
        const prevStamp = this.prevStamp;
        const curLen = this.curLen;
        const curStamp = this.curStamp;
        const end = start[x + 1]!;
        let p = start[x]!;
        if (blo > 0 && end - p > 8) {
          // Skip positions before blo (Python skips them one by one; same result).
          let hi = end;
          while (p < hi) {
            const mid = (p + hi) >> 1;
            if (pos[mid]! < blo) p = mid + 1;
            else hi = mid;
          }
        }
        for (; p < end; p++) {
          const j = pos[p]!;
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j > 0 && prevStamp[j - 1] === row - 1 ? prevLen[j - 1]! : 0) + 1;
          curLen[j] = k;
          curStamp[j] = row;
          if (k > bestsize) {
            besti = i - k + 1;
            bestj = j - k + 1;
            bestsize = k;
          }
        }
      }
      const tl = this.prevLen;
      const ts = this.prevStamp;
      this.prevLen = this.curLen;
      this.prevStamp = this.curStamp;
      this.curLen = tl;
      this.curStamp = ts;
    }
    // The first row of the next call must not see this call's last row.
    this.row++;
    // Extend by equal elements at both ends (popular elements are not junk, so they extend too).
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  }

  /** difflib `get_matching_blocks()` without the final sentinel, sorted, adjacent blocks merged. */
  matchingBlocks(): MatchingBlock[] {
    const blocks: [number, number, number][] = [];
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const m = this.findLongestMatch(alo, ahi, blo, bhi);
      const [i, j, k] = m;
      if (k > 0) {
        blocks.push(m);
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const merged: MatchingBlock[] = [];
    for (const [i, j, k] of blocks) {
      const last = merged[merged.length - 1];
      if (last && last.a + last.size === i && last.b + last.size === j) {
        merged[merged.length - 1] = { a: last.a, b: last.b, size: last.size + k };
      } else {
        merged.push({ a: i, b: j, size: k });
      }
    }
    return merged;
  }
}

export interface SequenceRatioOptions {
  /** difflib's `autojunk` (default true, as in `SequenceMatcher(None, a, b)`). */
  readonly autojunk?: boolean;
}

/**
 * difflib `SequenceMatcher(None, a, b).get_matching_blocks()` (without the `(len(a), len(b), 0)`
 * sentinel). Indices count code points, as Python does.
 */
export function sequenceMatchingBlocks(
  a: string,
  b: string,
  options: SequenceRatioOptions = {},
): MatchingBlock[] {
  return new Matcher(a, b, options.autojunk ?? true).matchingBlocks();
}

/**
 * difflib `SequenceMatcher(None, a, b).ratio()`: `2 * M / (len(a) + len(b))` where `M` is the total
 * size of the matching blocks; 1 when both strings are empty. No case folding: the ResearchQA
 * harness lowercases both sides itself (`a.lower()`, `b.lower()`).
 */
export function sequenceRatio(a: string, b: string, options: SequenceRatioOptions = {}): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const matcher = new Matcher(a, b, options.autojunk ?? true);
  let matches = 0;
  for (const block of matcher.matchingBlocks()) matches += block.size;
  return (2 * matches) / (matcher.a.length + matcher.b.length);
}
