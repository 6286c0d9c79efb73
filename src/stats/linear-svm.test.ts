import { describe, expect, it } from 'vitest';
import { trainLinearSvm } from './linear-svm.js';

describe('trainLinearSvm (libsvm C-SVC, linear kernel)', () => {
  it('finds the hard-margin hyperplane of a separable set (closed form: w = (1, 0), b = -1)', () => {
    // Support vectors (2, 0) and (0, 0): the margin is the strip 0 ≤ x₁ ≤ 2.
    const m = trainLinearSvm(
      [
        [2, 0],
        [3, 1],
        [0, 0],
        [-1, 1],
      ],
      [1, 1, -1, -1],
      { c: 1000 },
    );
    expect(m.converged).toBe(true);
    expect(m.weights[0]).toBeCloseTo(1, 6);
    expect(m.weights[1]).toBeCloseTo(0, 6);
    expect(m.bias).toBeCloseTo(-1, 6);
    expect(m.supportVectors).toBe(2);
  });

  it('caps α at C on a soft margin (closed form: α = C = 0.1, w = 0.1·(x₊ − x₋), b = 0)', () => {
    // Unconstrained optimum α = 0.25 > C, so both α sit at C; rho is the middle of the bounds.
    const m = trainLinearSvm(
      [
        [1, 1],
        [-1, -1],
      ],
      [1, -1],
      { c: 0.1 },
    );
    expect(m.weights[0]).toBeCloseTo(0.2, 12);
    expect(m.weights[1]).toBeCloseTo(0.2, 12);
    expect(m.bias).toBeCloseTo(0, 12);
  });

  it('reaches the unconstrained optimum when C is not binding (α = 0.25, w = (0.5, 0.5))', () => {
    const m = trainLinearSvm(
      [
        [1, 1],
        [-1, -1],
      ],
      [1, -1],
      { c: 10 },
    );
    expect(m.weights[0]).toBeCloseTo(0.5, 9);
    expect(m.bias).toBeCloseTo(0, 9);
  });

  it('satisfies the KKT conditions on overlapping classes', () => {
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t = (i * 37) % 60;
      x.push([Math.sin(t) * 2 + (i % 2 ? 1 : -1), Math.cos(t * 1.3)]);
      y.push(i % 2 ? 1 : -1);
    }
    const c = 0.5;
    const m = trainLinearSvm(x, y, { c });
    expect(m.converged).toBe(true);
    // Margins y·f(x): ≥ 1 off the support set, = 1 on free vectors, ≤ 1 at the bound (to eps).
    const margins = x.map((row, i) => y[i]! * (row[0]! * m.weights[0]! + row[1]! * m.weights[1]! + m.bias));
    const violations = margins.filter((v) => v < 1 - 1e-6).length;
    expect(violations).toBeGreaterThan(0); // overlapping: some samples must be inside the margin
    expect(m.supportVectors).toBeGreaterThanOrEqual(violations);
  });

  it('refuses one-class and mismatched input', () => {
    expect(() => trainLinearSvm([[1], [2]], [1, 1])).toThrow(/same label/);
    expect(() => trainLinearSvm([[1], [2]], [1])).toThrow(/as many labels/);
  });
});
