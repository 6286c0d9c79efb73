import { solveLinearSystem } from './solve-linear.js';

/** Newton steps shared by the JML and MML fits of the partial credit model. */

const MAX_STEP = 1;

/** Caps a Newton step at 1 logit (damping far from the optimum). */
export function clampStep(x: number): number {
  return Math.max(-MAX_STEP, Math.min(MAX_STEP, x));
}

/** Mean and variance of the category index under probabilities `p`. */
export function scoreMoments(p: readonly number[]): { e: number; v: number } {
  let e = 0;
  let e2 = 0;
  for (let k = 1; k < p.length; k++) {
    e += k * p[k]!;
    e2 += k * k * p[k]!;
  }
  return { e, v: e2 - e * e };
}

/**
 * Adds one observation (score index x, weight w) to the threshold gradient and curvature:
 * ∂ℓ/∂δ_j = P(X ≥ j) − 1[x ≥ j] and −∂²ℓ/∂δ_j∂δ_l = P(X ≥ max(j, l)) − P(X ≥ j) P(X ≥ l).
 * `atLeast` is scratch space of length m + 1.
 */
export function accumulateThresholds(
  p: readonly number[],
  x: number,
  w: number,
  grad: number[],
  curv: number[][],
  atLeast: number[],
): void {
  const m = p.length - 1;
  atLeast[m] = p[m]!;
  for (let k = m - 1; k >= 1; k--) atLeast[k] = atLeast[k + 1]! + p[k]!;
  for (let j = 1; j <= m; j++) {
    grad[j - 1]! += w * (atLeast[j]! - (x >= j ? 1 : 0));
    const row = curv[j - 1]!;
    for (let l = 1; l <= m; l++) row[l - 1]! += w * (atLeast[Math.max(j, l)]! - atLeast[j]! * atLeast[l]!);
  }
}

/**
 * Newton step for a block with a diagonal Hessian under Σ params = 0:
 * Δ_k = (g_k − μ) / c_k with μ chosen so that ΣΔ = 0 (Lagrange). Returns the largest move.
 */
export function constrainedDiagonalStep(
  params: number[],
  grad: readonly number[],
  curv: readonly number[],
): number {
  let num = 0;
  let den = 0;
  for (let k = 0; k < grad.length; k++) {
    num += grad[k]! / curv[k]!;
    den += 1 / curv[k]!;
  }
  const mu = num / den;
  return applyCentred(
    params,
    grad.map((g, k) => clampStep((g - mu) / curv[k]!)),
  );
}

/** Full Newton step under Σ params = 0 via the bordered (KKT) system [[C, 1], [1ᵀ, 0]]. */
export function constrainedFullStep(
  params: number[],
  grad: readonly number[],
  curv: readonly number[][],
): number {
  const m = params.length;
  const kkt = curv.map((row) => [...row, 1]);
  kkt.push([...new Array<number>(m).fill(1), 0]);
  const solution = solveLinearSystem(kkt, [...grad, 0]);
  return applyCentred(params, solution.slice(0, m).map(clampStep));
}

/** Adds the steps after removing their mean (clamping can break Σ = 0); returns the largest move. */
function applyCentred(params: number[], steps: readonly number[]): number {
  const shift = steps.reduce((a, b) => a + b, 0) / steps.length;
  let change = 0;
  for (let k = 0; k < params.length; k++) {
    const step = steps[k]! - shift;
    params[k]! += step;
    change = Math.max(change, Math.abs(step));
  }
  return change;
}

/** Ridge-penalised gradient and curvature start values: −ridge·x and ridge (identity). */
export function ridgeStart(params: readonly number[], ridge: number): { grad: number[]; curv: number[][] } {
  return {
    grad: params.map((d) => -ridge * d),
    curv: params.map((_, j) => params.map((__, l) => (j === l ? ridge : 0))),
  };
}
