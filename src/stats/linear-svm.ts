/**
 * A linear-kernel C-SVC trained exactly as libsvm trains it (what scikit-learn's
 * `SVC(kernel="linear")` runs): the dual problem
 *   min ½ αᵀQα − eᵀα  s.t.  yᵀα = 0, 0 ≤ αᵢ ≤ C,  Qᵢⱼ = yᵢyⱼ xᵢ·xⱼ
 * solved by SMO with libsvm's second-order working-set selection (Fan, Chen & Lin 2005, libsvm
 * `svm.cpp` `Solver::select_working_set`, `Solver::Solve`, `Solver::calculate_rho`), without
 * shrinking. The bias is not regularised (unlike liblinear's LinearSVC). For a linear kernel the
 * model is the weight vector w = Σ αᵢyᵢxᵢ and the bias b = −ρ; `decision(x) = w·x + b`.
 *
 * Written here rather than taken from npm: the only maintained candidate (libsvm-js) is an
 * Emscripten build whose model cannot be read back as weights; this is ~150 lines and is tested
 * against closed-form solutions.
 */
import { CitegeistError } from '../core/index.js';

export interface LinearSvmOptions {
  /** Penalty of a margin violation (libsvm `-c`, scikit-learn `C`; default 1). */
  c?: number;
  /** Stopping tolerance on the KKT gap (libsvm `-e`; default 1e-6, tighter than libsvm's 1e-3). */
  eps?: number;
  /** Iteration cap (default 10⁷); reaching it is reported, not hidden. */
  maxIterations?: number;
}

export interface LinearSvmModel {
  weights: number[];
  bias: number;
  /** Samples with α > 0. */
  supportVectors: number;
  iterations: number;
  /** False when the iteration cap stopped the solver before the tolerance was met. */
  converged: boolean;
}

const TAU = 1e-12;

/** Trains on rows `x` with labels `y` (+1 / −1). */
export function trainLinearSvm(
  x: readonly (readonly number[])[],
  y: readonly number[],
  options: LinearSvmOptions = {},
): LinearSvmModel {
  const n = x.length;
  const c = options.c ?? 1;
  const eps = options.eps ?? 1e-6;
  const maxIterations = options.maxIterations ?? 10_000_000;
  if (n !== y.length || n === 0 || !y.every((v) => v === 1 || v === -1)) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `trainLinearSvm: need as many labels (+1/-1) as rows, got ${n} rows and ${y.length} labels.`,
      'Give one label of +1 or -1 per feature row.',
    );
  }
  if (!y.includes(1) || !y.includes(-1)) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `trainLinearSvm: all ${n} samples have the same label; an SVM needs positives and negatives.`,
      'Give both positive and negative examples.',
    );
  }
  const d = x[0]!.length;
  const dot = (a: readonly number[], b: readonly number[]) => {
    let s = 0;
    for (let k = 0; k < d; k++) s += a[k]! * b[k]!;
    return s;
  };
  const qd = x.map((row) => dot(row, row));
  const alpha = new Float64Array(n);
  const grad = new Float64Array(n).fill(-1);
  const upper = (t: number) => alpha[t]! >= c;
  const lower = (t: number) => alpha[t]! <= 0;
  // Q column i: Q[i][t] = y_i y_t x_i·x_t.
  const column = (i: number) => {
    const out = new Float64Array(n);
    for (let t = 0; t < n; t++) out[t] = y[i]! * y[t]! * dot(x[i]!, x[t]!);
    return out;
  };
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    // Working set: i maximises −y_t G_t over I_up; j the second-order choice over I_low.
    let gmax = -Infinity;
    let i = -1;
    for (let t = 0; t < n; t++) {
      if (y[t] === 1 ? !upper(t) : !lower(t)) {
        const v = -y[t]! * grad[t]!;
        if (v >= gmax) {
          gmax = v;
          i = t;
        }
      }
    }
    if (i < 0) {
      converged = true;
      break;
    }
    const qi = column(i);
    let gmax2 = -Infinity;
    let j = -1;
    let best = Infinity;
    for (let t = 0; t < n; t++) {
      if (y[t] === 1 ? lower(t) : upper(t)) continue;
      const yg = y[t]! * grad[t]!;
      if (yg >= gmax2) gmax2 = yg;
      const gradDiff = gmax + yg;
      if (gradDiff > 0) {
        const quad = qd[i]! + qd[t]! - 2 * y[i]! * qi[t]! * y[t]!;
        const obj = -(gradDiff * gradDiff) / (quad > 0 ? quad : TAU);
        if (obj <= best) {
          best = obj;
          j = t;
        }
      }
    }
    if (gmax + gmax2 < eps || j < 0) {
      converged = true;
      break;
    }
    iterations++;
    const qj = column(j);
    const [oldI, oldJ] = [alpha[i]!, alpha[j]!];
    update(alpha, grad, y, qd, qi, i, j, c);
    const [dI, dJ] = [alpha[i]! - oldI, alpha[j]! - oldJ];
    for (let t = 0; t < n; t++) grad[t] = grad[t]! + qi[t]! * dI + qj[t]! * dJ;
  }
  const weights = new Array<number>(d).fill(0);
  let supportVectors = 0;
  for (let t = 0; t < n; t++) {
    if (alpha[t]! <= 0) continue;
    supportVectors++;
    for (let k = 0; k < d; k++) weights[k] = weights[k]! + alpha[t]! * y[t]! * x[t]![k]!;
  }
  return { weights, bias: -rho(alpha, grad, y, c), supportVectors, iterations, converged };
}

/** libsvm's analytic two-variable step with clipping to the box [0, C]. */
function update(
  alpha: Float64Array,
  grad: Float64Array,
  y: readonly number[],
  qd: readonly number[],
  qi: Float64Array,
  i: number,
  j: number,
  c: number,
): void {
  if (y[i] !== y[j]) {
    const quad = Math.max(qd[i]! + qd[j]! + 2 * qi[j]!, TAU);
    const delta = (-grad[i]! - grad[j]!) / quad;
    const diff = alpha[i]! - alpha[j]!;
    alpha[i] = alpha[i]! + delta;
    alpha[j] = alpha[j]! + delta;
    if (diff > 0) {
      if (alpha[j]! < 0) [alpha[j], alpha[i]] = [0, diff];
    } else if (alpha[i]! < 0) [alpha[i], alpha[j]] = [0, -diff];
    if (diff > 0) {
      if (alpha[i]! > c) [alpha[i], alpha[j]] = [c, c - diff];
    } else if (alpha[j]! > c) [alpha[j], alpha[i]] = [c, c + diff];
  } else {
    const quad = Math.max(qd[i]! + qd[j]! - 2 * qi[j]!, TAU);
    const delta = (grad[i]! - grad[j]!) / quad;
    const sum = alpha[i]! + alpha[j]!;
    alpha[i] = alpha[i]! - delta;
    alpha[j] = alpha[j]! + delta;
    if (sum > c) {
      if (alpha[i]! > c) [alpha[i], alpha[j]] = [c, sum - c];
    } else if (alpha[j]! < 0) [alpha[j], alpha[i]] = [0, sum];
    if (sum > c) {
      if (alpha[j]! > c) [alpha[j], alpha[i]] = [c, sum - c];
    } else if (alpha[i]! < 0) [alpha[i], alpha[j]] = [0, sum];
  }
}

/** `Solver::calculate_rho`: the mean of y·G over free vectors, else the middle of the bounds. */
function rho(alpha: Float64Array, grad: Float64Array, y: readonly number[], c: number): number {
  let ub = Infinity;
  let lb = -Infinity;
  let sumFree = 0;
  let free = 0;
  for (let t = 0; t < alpha.length; t++) {
    const yg = y[t]! * grad[t]!;
    if (alpha[t]! >= c) {
      if (y[t] === -1) ub = Math.min(ub, yg);
      else lb = Math.max(lb, yg);
    } else if (alpha[t]! <= 0) {
      if (y[t] === 1) ub = Math.min(ub, yg);
      else lb = Math.max(lb, yg);
    } else {
      free++;
      sumFree += yg;
    }
  }
  return free > 0 ? sumFree / free : (ub + lb) / 2;
}
