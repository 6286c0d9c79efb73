import { describe, expect, it } from 'vitest';
import { type Csr, randomizedSvd, symmetricEigen } from './svd.js';

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
  it('recovers the singular values of a small matrix (values of the Gram matrix as reference)', () => {
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
    const expected = [...symmetricEigen(gram, 3).values].map(Math.sqrt).sort((a, b) => b - a);
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

  it('symmetricEigen: A·v = λ·v and orthonormal vectors on a random symmetric matrix', () => {
    const n = 40;
    let seed = 3;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++) {
        a[i * n + j] = rand();
        a[j * n + i] = a[i * n + j]!;
      }
    }
    const { values, vectors } = symmetricEigen(a, n);
    for (let e = 0; e < n; e++) {
      for (let i = 0; i < n; i++) {
        let av = 0;
        for (let j = 0; j < n; j++) av += a[i * n + j]! * vectors[j * n + e]!;
        expect(av).toBeCloseTo(values[e]! * vectors[i * n + e]!, 10);
      }
      for (let f = 0; f < n; f++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += vectors[i * n + e]! * vectors[i * n + f]!;
        expect(dot).toBeCloseTo(e === f ? 1 : 0, 10);
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
