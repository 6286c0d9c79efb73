import type { IndexedRatings } from './partial-credit-input.js';
import type { PcmEstimates, PcmFitSettings } from './partial-credit-jml.js';
import {
  accumulateThresholds,
  constrainedDiagonalStep,
  constrainedFullStep,
  ridgeStart,
  scoreMoments,
} from './partial-credit-newton.js';
import { partialCreditProbabilities } from './partial-credit-probabilities.js';

export interface MmlEstimates extends PcmEstimates {
  /** Estimated mean and SD of the item measures' normal population distribution. */
  populationMean: number;
  populationSd: number;
  /** Marginal log-likelihood Σ_i log ∫ Π_o P(x_o | θ) N(θ; μ, σ²) dθ at the estimates. */
  marginalLogLikelihood: number;
}

/** Quadrature: 49 equally spaced nodes on [−6, 6] standard deviations with normal weights. */
const NODES = Array.from({ length: 49 }, (_, q) => -6 + q * 0.25);
const LOG_PRIOR = (() => {
  const w = NODES.map((z) => Math.exp(-0.5 * z * z));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => Math.log(x / s));
})();

/**
 * Marginal maximum likelihood by EM (Bock & Aitkin 1981): item measures are integrated out over a
 * normal population N(μ, σ²) on a fixed quadrature grid, so λ and δ are estimated consistently even
 * with few ratings per item. E-step: posterior weights of each item over the grid. M-step: one
 * penalised Newton step for λ (Σλ = 0) and for δ (Σδ = 0) on the expected log-likelihood, and the
 * closed-form update of μ and σ. Item measures are then posterior means (EAP) with posterior SDs.
 */
export function fitMml(data: IndexedRatings<unknown>, settings: PcmFitSettings): MmlEstimates {
  const { categories, maxIterations, tolerance, ridge } = settings;
  const lambda = new Array<number>(data.raters.length).fill(0);
  const delta = new Array<number>(categories - 1).fill(0);
  let mean = 0;
  let sd = 1;
  let iterations = 0;
  let converged = false;
  let e = expectation(data, lambda, delta, mean, sd);
  while (iterations < maxIterations && !converged) {
    iterations++;
    const change = maximisation(
      data,
      e,
      NODES.map((z) => mean + sd * z),
      lambda,
      delta,
      ridge,
    );
    const nextMean = average(e.eap);
    const nextSd = Math.max(
      1e-3,
      Math.sqrt(average(e.eap.map((m, i) => e.posteriorVar[i]! + (m - nextMean) ** 2))),
    );
    const populationChange = Math.max(Math.abs(nextMean - mean), Math.abs(nextSd - sd));
    mean = nextMean;
    sd = nextSd;
    e = expectation(data, lambda, delta, mean, sd);
    converged = Math.max(change, populationChange) < tolerance;
  }
  return {
    theta: e.eap,
    thetaSE: e.posteriorVar.map(Math.sqrt),
    lambda,
    delta,
    converged,
    iterations,
    populationMean: mean,
    populationSd: sd,
    marginalLogLikelihood: e.marginalLogLikelihood,
  };
}

interface Expectation {
  /** posterior[i * Q + q]: posterior weight of item i at grid point q. */
  posterior: Float64Array;
  eap: number[];
  posteriorVar: number[];
  marginalLogLikelihood: number;
}

/**
 * Category probabilities depend on an observation only through its rater and the grid point, so
 * they are computed once per (rater, grid point): probs[(r * Q + q) * K + k].
 */
function gridProbabilities(
  lambda: readonly number[],
  delta: readonly number[],
  grid: readonly number[],
): Float64Array {
  const Q = grid.length;
  const K = delta.length + 1;
  const probs = new Float64Array(lambda.length * Q * K);
  const p = new Array<number>(K);
  for (let r = 0; r < lambda.length; r++) {
    for (let q = 0; q < Q; q++) {
      partialCreditProbabilities(grid[q]!, lambda[r]!, delta, p);
      probs.set(p, (r * Q + q) * K);
    }
  }
  return probs;
}

function expectation(
  data: IndexedRatings<unknown>,
  lambda: readonly number[],
  delta: readonly number[],
  mean: number,
  sd: number,
): Expectation {
  const Q = NODES.length;
  const K = delta.length + 1;
  const grid = NODES.map((z) => mean + sd * z);
  const logProbs = gridProbabilities(lambda, delta, grid).map(Math.log);
  const logL = new Float64Array(data.items.length * Q);
  for (let o = 0; o < data.score.length; o++) {
    const row = data.item[o]! * Q;
    const base = data.rater[o]! * Q * K + data.score[o]!;
    for (let q = 0; q < Q; q++) logL[row + q]! += logProbs[base + q * K]!;
  }
  const posterior = new Float64Array(logL.length);
  const eap = new Array<number>(data.items.length);
  const posteriorVar = new Array<number>(data.items.length);
  let marginalLogLikelihood = 0;
  for (let i = 0; i < data.items.length; i++) {
    let max = Number.NEGATIVE_INFINITY;
    for (let q = 0; q < Q; q++) max = Math.max(max, logL[i * Q + q]! + LOG_PRIOR[q]!);
    let sum = 0;
    for (let q = 0; q < Q; q++) {
      const w = Math.exp(logL[i * Q + q]! + LOG_PRIOR[q]! - max);
      posterior[i * Q + q] = w;
      sum += w;
    }
    let m1 = 0;
    let m2 = 0;
    for (let q = 0; q < Q; q++) {
      const w = posterior[i * Q + q]! / sum;
      posterior[i * Q + q] = w;
      m1 += w * grid[q]!;
      m2 += w * grid[q]! * grid[q]!;
    }
    eap[i] = m1;
    posteriorVar[i] = Math.max(0, m2 - m1 * m1);
    marginalLogLikelihood += max + Math.log(sum);
  }
  return { posterior, eap, posteriorVar, marginalLogLikelihood };
}

/**
 * One Newton step for λ and for δ on the expected complete-data log-likelihood; returns the largest
 * move. The posterior weights are first summed into expected category counts per (rater, grid
 * point), after which the derivatives cost O(raters × grid × m²), not O(ratings × grid × m²).
 */
function maximisation(
  data: IndexedRatings<unknown>,
  e: Expectation,
  grid: readonly number[],
  lambda: number[],
  delta: number[],
  ridge: number,
): number {
  const Q = grid.length;
  const K = delta.length + 1;
  const counts = new Float64Array(lambda.length * Q * K);
  for (let o = 0; o < data.score.length; o++) {
    const i = data.item[o]!;
    const base = data.rater[o]! * Q * K + data.score[o]!;
    for (let q = 0; q < Q; q++) counts[base + q * K]! += e.posterior[i * Q + q]!;
  }
  const probs = gridProbabilities(lambda, delta, grid);
  const raterResid = new Array<number>(lambda.length).fill(0);
  const raterInfo = new Array<number>(lambda.length).fill(0);
  const { grad, curv } = ridgeStart(delta, ridge);
  const p = new Array<number>(K);
  const scratch = new Array<number>(K);
  for (let r = 0; r < lambda.length; r++) {
    for (let q = 0; q < Q; q++) {
      const at = (r * Q + q) * K;
      let weight = 0;
      let observed = 0;
      for (let k = 0; k < K; k++) {
        p[k] = probs[at + k]!;
        weight += counts[at + k]!;
        observed += k * counts[at + k]!;
      }
      if (weight < 1e-12) continue;
      const { e: expected, v } = scoreMoments(p);
      raterResid[r]! += observed - weight * expected;
      raterInfo[r]! += weight * v;
      for (let k = 0; k < K; k++) {
        if (counts[at + k]! > 0) accumulateThresholds(p, k, counts[at + k]!, grad, curv, scratch);
      }
    }
  }
  const raterChange = constrainedDiagonalStep(
    lambda,
    raterResid.map((s, k) => -s - ridge * lambda[k]!),
    raterInfo.map((v) => v + ridge),
  );
  return Math.max(raterChange, constrainedFullStep(delta, grad, curv));
}

function average(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
