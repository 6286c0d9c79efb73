import type { CorrelationValue } from './correlation.js';
import { assertPaired } from './validate.js';

/**
 * Kendall's τ-b (SciPy `kendalltau(x, y, variant='b')`): (concordant − discordant) pairs over
 * √((n0 − n1)(n0 − n2)), with n1, n2 the pairs tied in x and in y. Suited to square tables and the
 * usual choice for rank agreement with ties. `null` when n < 2 or either sample is all tied.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): CorrelationValue {
  assertPaired('kendallTauB', x, y);
  const c = kendallCounts(x, y);
  if (c === null) return null;
  const tau = c.concordantMinusDiscordant / Math.sqrt(c.total - c.tiedX) / Math.sqrt(c.total - c.tiedY);
  return Math.max(-1, Math.min(1, tau));
}

/**
 * Kendall's τ-c, Stuart's τ (SciPy `kendalltau(x, y, variant='c')`):
 * 2 (C − D) / (n² (m − 1) / m), with m the smaller number of distinct values in x or y. Suited to
 * rectangular tables (e.g. a 5-point scale against a continuous score). `null` where τ-b is.
 */
export function kendallTauC(x: readonly number[], y: readonly number[]): CorrelationValue {
  assertPaired('kendallTauC', x, y);
  const c = kendallCounts(x, y);
  if (c === null) return null;
  const m = Math.min(new Set(x).size, new Set(y).size);
  const n = x.length;
  const tau = (2 * c.concordantMinusDiscordant) / ((n * n * (m - 1)) / m);
  return Math.max(-1, Math.min(1, tau));
}

interface KendallCounts {
  total: number;
  tiedX: number;
  tiedY: number;
  concordantMinusDiscordant: number;
}

/**
 * Pair counts in O(n log n) (Knight's algorithm, as in SciPy): sort by (x, y), count ties in x and
 * joint ties by runs, then count discordant pairs as the strict inversions of y with a merge sort;
 * ties in y come from a sort of y. Returns null when τ is undefined (n < 2, or x or y all tied).
 */
function kendallCounts(x: readonly number[], y: readonly number[]): KendallCounts | null {
  const n = x.length;
  if (n < 2) return null;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!);
  const tiedX = tiedPairs(order.map((i) => x[i]!));
  const tiedXY = jointTiedPairs(order, x, y);
  const ys = Float64Array.from(order, (i) => y[i]!);
  const discordant = countInversions(ys);
  // after the merge sort ys is sorted, so ties in y are its runs
  const tiedY = tiedPairs(ys);
  const total = (n * (n - 1)) / 2;
  if (tiedX === total || tiedY === total) return null;
  const concordantMinusDiscordant = total - tiedX - tiedY + tiedXY - 2 * discordant;
  return { total, tiedX, tiedY, concordantMinusDiscordant };
}

/** Σ t(t−1)/2 over runs of equal values in an already sorted sequence. */
function tiedPairs(sorted: ArrayLike<number>): number {
  let pairs = 0;
  let run = 1;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i] === sorted[i - 1]) run++;
    else {
      pairs += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return pairs;
}

function jointTiedPairs(order: readonly number[], x: readonly number[], y: readonly number[]): number {
  let pairs = 0;
  let run = 1;
  for (let k = 1; k <= order.length; k++) {
    const same = k < order.length && x[order[k]!] === x[order[k - 1]!] && y[order[k]!] === y[order[k - 1]!];
    if (same) run++;
    else {
      pairs += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return pairs;
}

/** Sorts `a` in place (bottom-up merge sort) and returns the number of pairs i < j with a[i] > a[j]. */
function countInversions(a: Float64Array<ArrayBuffer>): number {
  const n = a.length;
  let src: Float64Array<ArrayBuffer> = a;
  let dst = new Float64Array(n);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[j]! < src[i]!) {
          inversions += mid - i;
          dst[k++] = src[j++]!;
        } else dst[k++] = src[i++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  if (src !== a) a.set(src);
  return inversions;
}
