import { CitegeistError } from '../core/index.js';

/**
 * Solves A x = b for a small dense square system by Gaussian elimination with partial pivoting.
 * Copies its inputs. Throws when A is singular to working precision.
 */
export function solveLinearSystem(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-300) {
      throw new CitegeistError(
        'STATS_SINGULAR_SYSTEM',
        `solveLinearSystem: the ${n} × ${n} system is singular at column ${col}.`,
        'Check the data for a parameter that no observation informs.',
      );
    }
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const rowCol = m[col]!;
    for (let r = col + 1; r < n; r++) {
      const row = m[r]!;
      const f = row[col]! / rowCol[col]!;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) row[c]! -= f * rowCol[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = m[r]!;
    let sum = row[n]!;
    for (let c = r + 1; c < n; c++) sum -= row[c]! * x[c]!;
    x[r] = sum / row[r]!;
  }
  return x;
}
