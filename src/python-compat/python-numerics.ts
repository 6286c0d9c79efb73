/**
 * Sums and means computed the way the Python tools whose outputs we reproduce compute them, so that
 * results agree to the last bit, not just to rounding:
 *
 * - `numpySum` / `numpyMean` / `numpyMedian`: NumPy's pairwise summation (`pairwise_sum_DOUBLE` in
 *   numpy/_core/src/umath/loops_utils.h.src: blocks of 128, eight accumulators, combined as
 *   ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))), used by `np.mean`, pandas and Auto-ARGUE's macro
 *   averages (verified on its published TSV: a plain left-to-right sum differs in the last digit);
 * - `exactMean`: Python's `statistics.mean` of floats, the exact rational mean rounded once to the
 *   nearest double (used by nuggetizer's `calculate_global_metrics`).
 */

const BLOCK = 128;

function pairwise(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i]!;
    return res;
  }
  if (n <= BLOCK) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => a[start + j]!);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += a[start + i + j]!;
    // Indices are literal: r has exactly eight entries.
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) res += a[start + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2);
}

/** `np.sum(a)` for a float64 vector. */
export function numpySum(a: ArrayLike<number>): number {
  return pairwise(a, 0, a.length);
}

/** `np.mean(a)`; NaN for an empty vector, as NumPy returns (with a warning). */
export function numpyMean(a: ArrayLike<number>): number {
  return a.length === 0 ? Number.NaN : numpySum(a) / a.length;
}

/** `np.median(a)`: the middle value, or the NumPy mean of the two middle values. */
export function numpyMedian(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A finite double as an exact fraction `num / 2^1074` (every finite double is one). */
function scaled(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) mant |= 1n << 52n;
  const shift = BigInt(Math.max(exp, 1) - 1);
  return sign * (mant << shift);
}

/** The double nearest to `num / den` (den > 0), ties to even: one correct rounding. */
function divideToDouble(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const negative = num < 0n;
  let n = negative ? -num : num;
  // Scale so that the quotient has at least 55 significant bits, then round the quotient.
  let shift = 0;
  const bits = (v: bigint) => v.toString(2).length;
  const want = bits(den) + 55 - bits(n);
  if (want > 0) {
    n <<= BigInt(want);
    shift = want;
  }
  let q = n / den;
  const sticky = n % den !== 0n;
  // Keep 54 bits (53 + a rounding bit); fold the rest into the sticky bit.
  const extra = bits(q) - 54;
  let rest = sticky;
  if (extra > 0) {
    rest ||= (q & ((1n << BigInt(extra)) - 1n)) !== 0n;
    q >>= BigInt(extra);
    shift -= extra;
  }
  // q has 54 bits: round its last bit away, ties to even. (Results below 2^-1022, far from any
  // score, may be rounded twice; they are never NaN or wrongly 0.)
  const round = q & 1n;
  q >>= 1n;
  shift -= 1;
  if (round === 1n && (rest || (q & 1n) === 1n)) q += 1n;
  const value = shift > 1000 ? Number(q) * 2 ** -1000 * 2 ** -(shift - 1000) : Number(q) * 2 ** -shift;
  return negative ? -value : value;
}

/** `statistics.mean(xs)` for finite floats: the exact mean, correctly rounded. NaN when empty. */
export function exactMean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let sum = 0n;
  for (const x of xs) sum += scaled(x);
  // mean = sum / 2^1074 / n
  return divideToDouble(sum, BigInt(xs.length) << 1074n);
}
