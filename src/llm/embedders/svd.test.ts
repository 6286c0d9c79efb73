import { describe, expect, it } from 'vitest';
import { type Csr, jacobiEigen, randomizedSvd } from './svd.js';

function csr(dense: number[][]): Csr {
  const indptr = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const row of dense) {
    row.forEach((v, j) => {
      if (v !== 0) {
        indices.push(j);
        values.push(v);
      }
    });
    indptr.push(indices.length);
  }
  return {
    rows: dense.length,
    cols: dense[0]?.length ?? 0,
    indptr: Uint32Array.from(indptr),
    indices: Uint32Array.from(indices),
    values: Float32Array.from(values),
  };
}

describe('randomizedSvd', () => {
  it('recovers the singular values of a small matrix (numpy.linalg.svd reference)', () => {
    // numpy: np.linalg.svd([[3,1,1],[-1,3,1],[0,0,2],[1,1,1]], compute_uv=False)
    const m = csr([
      [3, 1, 1],
      [-1, 3, 1],
      [0, 0, 2],
      [1, 1, 1],
    ]);
    const { sigma, v, k } = randomizedSvd(m, 3, { seed: 7 });
    const gram = new Float64Array(9);
    const dense = [
      [3, 1, 1],
      [-1, 3, 1],
      [0, 0, 2],
      [1, 1, 1],
    ];
    for (const row of dense)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) gram[i * 3 + j]! += row[i]! * row[j]!;
    const expected = [...jacobiEigen(gram, 3).values].map(Math.sqrt).sort((a, b) => b - a);
    expect(k).toBe(3);
    for (let i = 0; i < 3; i++) expect(sigma[i]).toBeCloseTo(expected[i]!, 4);
    // right singular vectors are orthonormal
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        let dot = 0;
        for (let r = 0; r < 3; r++) dot += v[r * 3 + a]! * v[r * 3 + b]!;
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 4);
      }
    }
  });

  it('handles rank deficiency (duplicate rows) without NaN', () => {
    const { sigma, v } = randomizedSvd(
      csr([
        [1, 2, 0, 0],
        [1, 2, 0, 0],
        [2, 4, 0, 0],
      ]),
      3,
    );
    expect(sigma[0]).toBeGreaterThan(0);
    expect(sigma[1]).toBeCloseTo(0, 4);
    expect([...v].every(Number.isFinite)).toBe(true);
  });
});
