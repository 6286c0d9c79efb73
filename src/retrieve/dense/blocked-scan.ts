import { TopK } from '../common/index.js';

/** Rows scanned per cache block: 512 × 384 floats = 768 KB stays in L2/L3 while every query block passes over it. */
export const ROW_BLOCK = 512;

/**
 * Exact top-k inner-product search in pure JS: a blocked matrix multiply `scores = queries · dataᵀ`
 * that never materialises the score matrix. The rows are walked in cache blocks of `ROW_BLOCK`;
 * inside a block every group of four queries (packed interleaved into a Float64Array) is scored
 * against two rows at a time, so each loaded float feeds 4 or 8 multiply-adds held in registers.
 * Each query keeps a bounded min-heap (`TopK`) and a cached threshold, so a score only reaches the
 * heap when it can enter. Every dot product is summed in float64 in dimension order, exactly like
 * the naive loop, so scores are bit-identical to it; ties keep the lower row index. Rows with
 * `skip[row]` set (tombstoned) are not scored.
 */
export function blockedTopK(
  data: Float32Array,
  dimensions: number,
  queries: readonly Float32Array[],
  k: number,
  skip: Uint8Array | null = null,
): { index: number; score: number }[][] {
  const d = dimensions;
  const size = data.length / d;
  const quads = Math.ceil(queries.length / 4);
  const packed = new Float64Array(quads * 4 * d);
  queries.forEach((q, qi) => {
    const base = (qi >> 2) * 4 * d + (qi & 3);
    for (let j = 0; j < d; j++) packed[base + 4 * j] = q[j] as number;
  });
  const heaps = Array.from({ length: quads * 4 }, () => new TopK(Math.min(k, size)));
  const thresholds = new Float64Array(quads * 4).fill(Number.NEGATIVE_INFINITY);
  const scores = new Float64Array(8);
  for (let start = 0; start < size; start += ROW_BLOCK) {
    const end = Math.min(size, start + ROW_BLOCK);
    const skipped = skip?.subarray(start, end);
    if (skipped && !skipped.includes(0)) continue;
    if (skipped?.includes(1)) {
      // A block with tombstoned rows: its live rows one at a time.
      for (let i = start; i < end; i++) {
        if (skipped[i - start]) continue;
        for (let quad = 0; quad < quads; quad++) {
          scoreOne(data, i * d, d, packed, quad * 4 * d, scores);
          offer(heaps, thresholds, quad * 4, i, scores, 0);
        }
      }
      continue;
    }
    for (let quad = 0; quad < quads; quad++) {
      let i = start;
      for (; i + 1 < end; i += 2) {
        scorePair(data, i * d, d, packed, quad * 4 * d, scores);
        offer(heaps, thresholds, quad * 4, i, scores, 0);
        offer(heaps, thresholds, quad * 4, i + 1, scores, 4);
      }
      if (i < end) {
        scoreOne(data, i * d, d, packed, quad * 4 * d, scores);
        offer(heaps, thresholds, quad * 4, i, scores, 0);
      }
    }
  }
  return heaps.slice(0, queries.length).map((h) => h.sorted());
}

/** Rows `a` and `a + d` against four interleaved queries at `qo`: 8 sums into `out`. */
function scorePair(
  data: Float32Array,
  a: number,
  d: number,
  q: Float64Array,
  qo: number,
  out: Float64Array,
): void {
  const b = a + d;
  let s00 = 0;
  let s01 = 0;
  let s02 = 0;
  let s03 = 0;
  let s10 = 0;
  let s11 = 0;
  let s12 = 0;
  let s13 = 0;
  for (let j = 0, t = qo; j < d; j++, t += 4) {
    const x = data[a + j] as number;
    const y = data[b + j] as number;
    const w0 = q[t] as number;
    const w1 = q[t + 1] as number;
    const w2 = q[t + 2] as number;
    const w3 = q[t + 3] as number;
    s00 += x * w0;
    s01 += x * w1;
    s02 += x * w2;
    s03 += x * w3;
    s10 += y * w0;
    s11 += y * w1;
    s12 += y * w2;
    s13 += y * w3;
  }
  out[0] = s00;
  out[1] = s01;
  out[2] = s02;
  out[3] = s03;
  out[4] = s10;
  out[5] = s11;
  out[6] = s12;
  out[7] = s13;
}

/** Row `a` against four interleaved queries at `qo`: 4 sums into `out[0..3]`. */
function scoreOne(
  data: Float32Array,
  a: number,
  d: number,
  q: Float64Array,
  qo: number,
  out: Float64Array,
): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let j = 0, t = qo; j < d; j++, t += 4) {
    const x = data[a + j] as number;
    s0 += x * (q[t] as number);
    s1 += x * (q[t + 1] as number);
    s2 += x * (q[t + 2] as number);
    s3 += x * (q[t + 3] as number);
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

/** Offers row `row`'s four scores `scores[from..from+3]` to the heaps of queries `h..h+3`. */
function offer(
  heaps: TopK[],
  thresholds: Float64Array,
  h: number,
  row: number,
  scores: Float64Array,
  from: number,
): void {
  for (let t = 0; t < 4; t++) {
    const s = scores[from + t] as number;
    if (s >= (thresholds[h + t] as number)) {
      const heap = heaps[h + t] as TopK;
      heap.push(row, s);
      thresholds[h + t] = heap.threshold;
    }
  }
}
