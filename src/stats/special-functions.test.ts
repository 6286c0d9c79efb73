import { describe, expect, it } from 'vitest';
import { logGamma, regularizedIncompleteBeta, studentTCdf, studentTTwoSidedP } from './special-functions.js';

describe('logGamma', () => {
  it.each([
    [1, 0],
    [2, 0],
    [5, Math.log(24)],
    [0.5, Math.log(Math.sqrt(Math.PI))],
    [
      10.5,
      Math.log(
        Math.sqrt(Math.PI) * [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5].reduce((p, v) => p * v),
      ),
    ],
    [171, 706.5730622457874], // ln(170!)
  ])('ln Γ(%d)', (x, expected) => {
    expect(logGamma(x)).toBeCloseTo(expected, 10);
  });
});

describe('regularizedIncompleteBeta', () => {
  it.each([
    // closed forms
    ['I_x(1,1) = x', 0.5, 1, 1, 0.5],
    ['I_x(2,3) binomial sum', 0.3, 2, 3, 0.3483],
    ['I_x(1/2,1/2) = 2/π asin √x', 0.9, 0.5, 0.5, (2 / Math.PI) * Math.asin(Math.sqrt(0.9))],
    // SciPy 1.17.1 special.betainc
    ['tiny tail', 0.01, 10, 0.5, 1.770034965528571e-21],
    ['large a', 0.999, 200, 0.5, 0.5272441070252349],
    ['x = 0', 0, 2, 3, 0],
    ['x = 1', 1, 2, 3, 1],
  ])('%s', (_, x, a, b, expected) => {
    const got = regularizedIncompleteBeta(x, a, b);
    expect(Math.abs(got - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1e-9, Math.abs(expected)));
  });
  it('is NaN outside its domain', () => {
    expect(regularizedIncompleteBeta(1.5, 1, 1)).toBeNaN();
    expect(regularizedIncompleteBeta(0.5, 0, 1)).toBeNaN();
  });
});

describe('Student t', () => {
  it.each([
    // the brief's check value; SciPy 1.17.1: 2 * t.sf(2, 10) = 0.07338803477074037
    [2.0, 10, 0.07338803477074037],
    // closed forms: df = 1 is Cauchy, P(|T| ≥ 1) = 1/2; df = 2: P(|T| ≥ t) = 1 − t/√(2 + t²)
    [1.0, 1, 0.5],
    [3.0, 2, 1 - 3 / Math.sqrt(11)],
    [0, 5, 1],
    // SciPy 1.17.1 2 * t.sf(|t|, df)
    [2.5, 3, 0.08770664700806556],
    [-3.2, 25, 0.003715968433930124],
    [1.96, 1000, 0.050273184955748736],
    [10, 4, 0.000562003622715991],
    [0.5, 2.5, 0.6576979198697148],
    [40, 30, 1.3726045194406417e-27],
  ])('t = %d, df = %d → two-sided p = %d', (t, df, expected) => {
    expect(Math.abs(studentTTwoSidedP(t, df) - expected)).toBeLessThanOrEqual(1e-11 * expected);
  });
  it.each([
    [1, 1, 0.75],
    [-3.2, 25, 0.001857984216965062],
    [2.0, 10, 0.9633059826146299],
    [Number.POSITIVE_INFINITY, 3, 1],
  ])('cdf(%d; df = %d) = %d', (t, df, expected) => {
    expect(studentTCdf(t, df)).toBeCloseTo(expected, 13);
  });
});
