/**
 * The `criteria` selector: a linear SVM over the 19 quality features, each standardised per
 * request (z-scores over that request's nuggets, population standard deviation; a constant
 * feature scores 0, as scikit-learn's StandardScaler leaves a zero variance at scale 1). Trained
 * with human-written nuggets as positives and generated ones as negatives (METHODS §5 step 4);
 * the score of a nugget is the SVM decision value, stored in `metadata.model_score`.
 *
 * The released code loads its model with helpers it does not publish
 * (`classification_lib.load_model_package`, `predict_with_model_package`), so the file format
 * below is ours: JSON, with what it was trained on.
 */
import { z } from 'zod';
import { CitegeistError, describeIssues } from '../../core/index.js';
import { readJsonFile } from '../../io/index.js';
import { type LinearSvmOptions, trainLinearSvm } from '../../stats/index.js';

export const SELECTOR_FORMAT = 'citegeist-nugget-selector/1';

export const SelectorSchema = z.looseObject({
  format: z.literal(SELECTOR_FORMAT),
  features: z.array(z.string()).min(1),
  weights: z.array(z.number()),
  bias: z.number(),
  standardise: z.literal('per-request'),
  trained: z.record(z.string(), z.unknown()).optional(),
});
export type Selector = z.infer<typeof SelectorSchema>;

export function loadSelector(path: string): Selector {
  const value = readJsonFile(path, 'selector');
  const parsed = SelectorSchema.safeParse(value);
  if (!parsed.success || parsed.data.weights.length !== parsed.data.features.length) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `The selector ${path} is not a ${SELECTOR_FORMAT} file: ${
        parsed.success ? 'weights and features differ in length' : describeIssues(parsed.error)
      }.`,
      'Pass a file written by `citegeist nuggets train-selector`.',
    );
  }
  return parsed.data;
}

/** Z-scores per column over the rows (one request's nuggets). */
export function standardise(rows: readonly (readonly number[])[]): number[][] {
  if (rows.length === 0) return [];
  const d = rows[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const r of rows) for (let k = 0; k < d; k++) mean[k] = mean[k]! + r[k]! / rows.length;
  for (const r of rows) for (let k = 0; k < d; k++) sd[k] = sd[k]! + (r[k]! - mean[k]!) ** 2 / rows.length;
  return rows.map((r) => r.map((v, k) => (sd[k]! > 0 ? (v - mean[k]!) / Math.sqrt(sd[k]!) : 0)));
}

/** A feature row in the selector's column order, or the name of the first feature missing. */
export function featureRow(
  features: ReadonlyMap<string, number>,
  columns: readonly string[],
): number[] | { missing: string } {
  const row: number[] = [];
  for (const c of columns) {
    const v = features.get(c);
    if (v === undefined || !Number.isFinite(v)) return { missing: c };
    row.push(v);
  }
  return row;
}

/** Decision values of one request's nuggets (rows standardised together). */
export function scoreRequest(selector: Selector, rows: readonly (readonly number[])[]): number[] {
  return standardise(rows).map((z) => z.reduce((s, v, k) => s + v * selector.weights[k]!, 0) + selector.bias);
}

export interface TrainingGroup {
  requestId: string;
  positives: number[][];
  negatives: number[][];
}

/** Trains a selector: each request's positives and negatives standardised together, then one SVM. */
export function trainSelector(
  groups: readonly TrainingGroup[],
  features: readonly string[],
  options: LinearSvmOptions & { trained?: Record<string, unknown> } = {},
): Selector {
  const x: number[][] = [];
  const y: number[] = [];
  for (const g of groups) {
    const z = standardise([...g.positives, ...g.negatives]);
    z.forEach((row, i) => {
      x.push(row);
      y.push(i < g.positives.length ? 1 : -1);
    });
  }
  const { trained, ...svmOptions } = options;
  const model = trainLinearSvm(x, y, svmOptions);
  return {
    format: SELECTOR_FORMAT,
    features: [...features],
    weights: model.weights,
    bias: model.bias,
    standardise: 'per-request',
    trained: {
      ...trained,
      svm: {
        kernel: 'linear',
        c: svmOptions.c ?? 1,
        solver: 'smo (libsvm working-set selection)',
        support_vectors: model.supportVectors,
        iterations: model.iterations,
        converged: model.converged,
      },
      positives: y.filter((v) => v === 1).length,
      negatives: y.filter((v) => v === -1).length,
      requests: groups.length,
    },
  };
}
