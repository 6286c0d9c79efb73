/**
 * C `printf("%.<digits>f")` as glibc prints it: the exact binary value rounded to nearest, exact
 * ties to even. `toFixed` rounds exact ties (e.g. 0.03125) away from zero, so ties are detected on
 * the exact decimal expansion (toFixed(60) is exact for these magnitudes) and fixed here.
 */
export function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return '-nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  let out = x.toFixed(digits);
  if (Math.abs(x) < 1e21) {
    const exact = Math.abs(x).toFixed(60);
    const dot = exact.indexOf('.');
    if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
      const last = digits === 0 ? Number(exact[dot - 1]) : Number(exact[dot + digits]);
      // toFixed rounded the tie away from zero; C keeps the even digit: truncate instead.
      if (last % 2 === 0) out = `${x < 0 ? '-' : ''}${exact.slice(0, digits === 0 ? dot : dot + 1 + digits)}`;
    }
  }
  if (x < 0 && !out.startsWith('-')) out = `-${out}`;
  if (Object.is(x, -0)) return `-${(0).toFixed(digits)}`;
  return out;
}

/** `%6.4f`, trec_eval's format for every real-valued measure. */
export function formatFixed4(x: number): string {
  return formatFixed(x, 4).padStart(6);
}

/**
 * `%ld` of `(long) x`: truncation toward zero; NaN and values outside the range give the x86-64
 * conversion's 0x8000000000000000, as the C build prints on the machines it is used on.
 */
export function formatLong(x: number): string {
  if (Number.isNaN(x) || Math.abs(x) >= 2 ** 63) return '-9223372036854775808';
  const t = Math.trunc(x);
  return Object.is(t, -0) ? '0' : BigInt(t).toString();
}
