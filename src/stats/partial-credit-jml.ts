import type { IndexedRatings } from './partial-credit-input.js';
import {
  accumulateThresholds,
  clampStep,
  constrainedDiagonalStep,
  constrainedFullStep,
  ridgeStart,
  scoreMoments,
} from './partial-credit-newton.js';
import { partialCreditProbabilities } from './partial-credit-probabilities.js';

/** Parameter estimates of the many-facet partial credit model. */
export interface PcmEstimates {
  theta: number[];
  /** Standard error of each θ (model SE for JML, posterior SD for MML). */
  thetaSE: number[];
  lambda: number[];
  delta: number[];
  converged: boolean;
  iterations: number;
}

export interface PcmFitSettings {
  categories: number;
  maxIterations: number;
  tolerance: number;
  ridge: number;
}

/**
 * Penalised joint maximum likelihood: sweeps of block Newton–Raphson over all θ (diagonal Hessian),
 * all λ (diagonal, Σλ = 0) and δ (full m × m Hessian, Σδ = 0), each step capped at 1 logit, until
 * no parameter moves more than the tolerance. Known to be inconsistent when items have few ratings
 * (incidental parameters): thresholds and severities come out spread too wide.
 */
export function fitJml(data: IndexedRatings<unknown>, settings: PcmFitSettings): PcmEstimates {
  const { categories, maxIterations, tolerance, ridge } = settings;
  const theta = new Array<number>(data.items.length).fill(0);
  const lambda = new Array<number>(data.raters.length).fill(0);
  const delta = new Array<number>(categories - 1).fill(0);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    iterations++;
    const [itemResid, itemInfo] = facetSums(data, theta, lambda, delta, data.item, theta.length);
    let change = 0;
    for (let i = 0; i < theta.length; i++) {
      const step = clampStep((itemResid[i]! - ridge * theta[i]!) / (itemInfo[i]! + ridge));
      theta[i]! += step;
      change = Math.max(change, Math.abs(step));
    }
    const [raterResid, raterInfo] = facetSums(data, theta, lambda, delta, data.rater, lambda.length);
    change = Math.max(
      change,
      constrainedDiagonalStep(
        lambda,
        raterResid.map((r, k) => -r - ridge * lambda[k]!),
        raterInfo.map((v) => v + ridge),
      ),
    );
    change = Math.max(change, thresholdStep(data, theta, lambda, delta, ridge));
    converged = change < tolerance;
  }
  const [, info] = facetSums(data, theta, lambda, delta, data.item, theta.length);
  return { theta, thetaSE: info.map((v) => 1 / Math.sqrt(v + ridge)), lambda, delta, converged, iterations };
}

/** Per element of one facet: Σ(x − E) and Σ Var(X) at the current estimates. */
export function facetSums(
  data: IndexedRatings<unknown>,
  theta: readonly number[],
  lambda: readonly number[],
  delta: readonly number[],
  facet: Int32Array,
  size: number,
): [number[], number[]] {
  const resid = new Array<number>(size).fill(0);
  const info = new Array<number>(size).fill(0);
  const p = new Array<number>(delta.length + 1);
  for (let o = 0; o < data.score.length; o++) {
    partialCreditProbabilities(theta[data.item[o]!]!, lambda[data.rater[o]!]!, delta, p);
    const { e, v } = scoreMoments(p);
    resid[facet[o]!]! += data.score[o]! - e;
    info[facet[o]!]! += v;
  }
  return [resid, info];
}

function thresholdStep(
  data: IndexedRatings<unknown>,
  theta: readonly number[],
  lambda: readonly number[],
  delta: number[],
  ridge: number,
): number {
  const { grad, curv } = ridgeStart(delta, ridge);
  const p = new Array<number>(delta.length + 1);
  const scratch = new Array<number>(delta.length + 1);
  for (let o = 0; o < data.score.length; o++) {
    partialCreditProbabilities(theta[data.item[o]!]!, lambda[data.rater[o]!]!, delta, p);
    accumulateThresholds(p, data.score[o]!, 1, grad, curv, scratch);
  }
  return constrainedFullStep(delta, grad, curv);
}
