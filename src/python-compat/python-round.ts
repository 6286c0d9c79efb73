/**
 * Python's `round(x, ndigits)` on a double, exactly (CPython `float.__round__`, Objects/floatobject.c
 * `double_round`): the decimal with `ndigits` places nearest to the EXACT binary value of `x`, ties
 * (only when `x` is exactly halfway in binary, e.g. 0.0625 at 3 places) to the even last digit, then
 * read back as the nearest double.
 *
 * `Number.prototype.toFixed` already rounds the exact binary value (so 0.0005 → "0.001" and
 * 0.6665 → "0.666", as Python does, where `Math.round(x * 1000) / 1000` gives 0.667); it differs
 * only on exact ties, which it rounds away from zero. Those are detected exactly from the bits:
 * x = m · 2^e (m odd) is halfway between two multiples of 10^-d iff x · 2 · 10^d is an odd
 * integer, i.e. iff e + d + 1 = 0 (10^d contributes 2^d, and 5^d is odd).
 */
import { CitegeistError } from '../core/index.js';
export function pythonRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || !Number.isInteger(ndigits) || ndigits < 0 || ndigits > 100) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `pythonRound needs a finite number and 0 ≤ ndigits ≤ 100 (got ${x}, ${ndigits}).`,
      'Pass a finite number and an integer ndigits from 0 to 100.',
    );
  }
  if (x === 0 || Math.abs(x) >= 1e21) return x;
  const text = x.toFixed(ndigits);
  if (oddBinaryExponent(x) + ndigits + 1 !== 0) return Number(text);
  // An exact tie: toFixed went away from zero; Python keeps the even neighbour.
  const lastDigit = Number(text[text.length - 1]);
  if (lastDigit % 2 === 0) return Number(text);
  return Number(towardZeroByOneUnit(text, ndigits));
}

/** The decimal `text` (from toFixed) moved one unit of its last place toward zero. */
function towardZeroByOneUnit(text: string, ndigits: number): string {
  const negative = text.startsWith('-');
  const units = BigInt(text.replace('-', '').replace('.', '')) - 1n;
  const digits = units.toString().padStart(ndigits + 1, '0');
  const whole = digits.slice(0, digits.length - ndigits);
  const places = ndigits > 0 ? `.${digits.slice(digits.length - ndigits)}` : '';
  return `${negative ? '-' : ''}${whole}${places}`;
}

const view = new DataView(new ArrayBuffer(8));

/** The exponent e of x = m · 2^e with m an odd integer (x finite and non-zero). */
function oddBinaryExponent(x: number): number {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissaHi = hi & 0xfffff;
  // Normal numbers have the implicit leading 1; subnormals do not and use exponent 1 - 1075.
  if (biased !== 0) mantissaHi |= 0x100000;
  const e = (biased === 0 ? 1 : biased) - 1075;
  // Shift out trailing zero bits of the 53-bit mantissa (lo word first).
  if (lo !== 0) return e + trailingZeros(lo);
  return e + 32 + trailingZeros(mantissaHi);
}

function trailingZeros(word: number): number {
  return 31 - Math.clz32(word & -word);
}
