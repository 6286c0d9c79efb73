import type { RunRow } from '../../core/index.js';
import { CitegeistError } from '../../core/index.js';
import { type BootstrapInterval, keyedMeanInterval } from '../../stats/index.js';
import {
  type BaselineValues,
  type BertScore,
  bertScore,
  idfFromReferences,
  type TokenEncoder,
} from './bertscore.js';
import { parseRougeTypes, RougeScorer, type RougeType } from './rouge.js';
import type { RougeScore } from './rouge-lcs.js';

export type QaMetricId = RougeType | 'bertscore';

export type QaStatus = 'scored' | 'not-applicable' | 'failed';

/** One scored answer (a line of scores.jsonl). Scores absent unless their status is "scored". */
export interface QaScoreRow {
  row_id: string;
  model: string;
  n_references: number;
  status: Partial<Record<QaMetricId, QaStatus>>;
  rouge?: Partial<Record<RougeType, RougeScore>>;
  bertscore?: BertScore;
  /** Why the row is not scored (no references, or the answer failed). */
  reason?: string;
}

export interface BertScoreSettings {
  encoder: TokenEncoder;
  idf: boolean;
  baseline?: BaselineValues;
}

export interface QaEvalOptions {
  metrics: readonly QaMetricId[];
  stemmer: boolean;
  /** Required when `metrics` has "bertscore". */
  bertscore?: BertScoreSettings;
  signal?: AbortSignal;
}

export interface QaEvalResult {
  rows: QaScoreRow[];
  /** Prediction rows whose id has no entry in the references (not scored). */
  unknownRows: string[];
  /** Reference rows with no prediction. */
  missingRows: string[];
}

/** Splits and checks a `--metric` list: rouge1 … rouge9, rougeL, rougeLsum, bertscore. */
export function parseQaMetrics(list: readonly string[]): QaMetricId[] {
  const rouge = list.filter((m) => m !== 'bertscore');
  if (rouge.length > 0) parseRougeTypes(rouge);
  return [...new Set(list)] as QaMetricId[];
}

/**
 * Scores free-text answers against reference answers, joining prediction rows to references by
 * `row_id` as `grade` joins run rows to dataset rows. Per row and metric the status is scored,
 * not applicable (no reference answer) or failed (the answer itself failed: `error` set in the
 * run); a failed answer is never scored 0. ROUGE takes the best reference (rouge-score
 * `score_multi`), BERTScore the element-wise maximum (bert_score with a list of references).
 */
export async function scoreAnswers(
  predictions: readonly RunRow[],
  references: ReadonlyMap<string, readonly string[]>,
  options: QaEvalOptions,
): Promise<QaEvalResult> {
  const rougeTypes = options.metrics.filter((m): m is RougeType => m !== 'bertscore');
  const scorer = rougeTypes.length > 0 ? new RougeScorer(rougeTypes, { stemmer: options.stemmer }) : null;
  const wantsBert = options.metrics.includes('bertscore');
  if (wantsBert && !options.bertscore) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      'bertscore needs an encoder (options.bertscore).',
      'Pass options.bertscore, or leave bertscore out of the metrics.',
    );
  }
  const unknownRows: string[] = [];
  const rows: QaScoreRow[] = [];
  const bertRows: { row: QaScoreRow; answer: string; refs: readonly string[] }[] = [];
  // Idf counts the references of every joined row, failed answers included, as bert_score would
  // count them: the weights do not depend on which answers happened to fail.
  const idfReferences: string[] = [];
  for (const p of predictions) {
    const refs = references.get(p.row_id);
    if (refs === undefined) {
      unknownRows.push(p.row_id);
      continue;
    }
    const row: QaScoreRow = { row_id: p.row_id, model: p.model, n_references: refs.length, status: {} };
    rows.push(row);
    idfReferences.push(...refs);
    const verdict: QaStatus = p.error ? 'failed' : refs.length === 0 ? 'not-applicable' : 'scored';
    for (const m of options.metrics) row.status[m] = verdict;
    if (verdict !== 'scored') {
      row.reason = p.error ? `the answer failed: ${p.error}` : 'no reference answer';
      continue;
    }
    if (scorer) {
      const best = scorer.scoreMulti(refs, p.answer)!;
      row.rouge = Object.fromEntries(rougeTypes.map((t) => [t, best[t]!]));
    }
    if (wantsBert) bertRows.push({ row, answer: p.answer, refs });
  }
  if (wantsBert && bertRows.length > 0) {
    await addBertScores(bertRows, idfReferences, options.bertscore!, options.signal);
  }
  const predicted = new Set(predictions.map((p) => p.row_id));
  const missingRows = [...references.keys()].filter((id) => !predicted.has(id));
  return { rows, unknownRows, missingRows };
}

/** Encodes every distinct text once, then scores all rows in one call. */
async function addBertScores(
  items: { row: QaScoreRow; answer: string; refs: readonly string[] }[],
  idfReferences: readonly string[],
  settings: BertScoreSettings,
  signal: AbortSignal | undefined,
): Promise<void> {
  const texts = [
    ...new Set([...items.flatMap((x) => [x.answer, ...x.refs]), ...(settings.idf ? idfReferences : [])]),
  ];
  const encoded = await settings.encoder.encode(texts, signal);
  const byText = new Map(texts.map((t, i) => [t, encoded[i]!]));
  const idf = settings.idf ? idfFromReferences(idfReferences.map((r) => byText.get(r)!)) : false;
  const scores = bertScore(
    items.map((x) => byText.get(x.answer)!),
    items.map((x) => x.refs.map((r) => byText.get(r)!)),
    { idf, ...(settings.baseline ? { baseline: settings.baseline } : {}) },
  );
  items.forEach((x, i) => {
    x.row.bertscore = scores[i]!;
  });
}

export interface QaMetricSummary {
  metric: QaMetricId;
  scored: number;
  notApplicable: number;
  failed: number;
  /** Mean F (ROUGE F-measure, BERTScore F1) with its percentile bootstrap CI. */
  f: BootstrapInterval;
  /** Mean precision and recall over the rows where they are defined (BERTScore may leave them null). */
  precision: number | null;
  recall: number | null;
}

export interface QaModelSummary {
  model: string;
  rows: number;
  metrics: QaMetricSummary[];
}

/** The value a metric gives one row: [precision, recall, F], or null when the row is not scored. */
export function qaValues(row: QaScoreRow, metric: QaMetricId): [number | null, number | null, number] | null {
  if (row.status[metric] !== 'scored') return null;
  if (metric === 'bertscore') {
    const b = row.bertscore;
    return b ? [b.precision, b.recall, b.f1] : null;
  }
  const r = row.rouge?.[metric];
  return r ? [r.precision, r.recall, r.fmeasure] : null;
}

/** Per model and metric: counts by status, mean P/R, and mean F with a bootstrap CI (src/stats). */
export function summarizeQaScores(
  rows: readonly QaScoreRow[],
  metrics: readonly QaMetricId[],
  options: { seed?: number; iterations?: number; confidence?: number } = {},
): QaModelSummary[] {
  const models = [...new Set(rows.map((r) => r.model))];
  return models.map((model) => {
    const mine = rows.filter((r) => r.model === model);
    return {
      model,
      rows: mine.length,
      metrics: metrics.map((metric) => {
        const scored = mine.filter((r) => qaValues(r, metric) !== null);
        const values = scored.map((r) => qaValues(r, metric)!);
        const mean = (xs: (number | null)[]) => {
          const ok = xs.filter((x): x is number => x !== null);
          return ok.length > 0 ? ok.reduce((s, x) => s + x, 0) / ok.length : null;
        };
        return {
          metric,
          scored: values.length,
          notApplicable: mine.filter((r) => r.status[metric] === 'not-applicable').length,
          failed: mine.filter((r) => r.status[metric] === 'failed').length,
          f: keyedMeanInterval(
            scored.map((r) => r.row_id),
            values.map((v) => v[2]),
            {
              seed: options.seed ?? 0,
              iterations: options.iterations ?? 10_000,
              confidence: options.confidence ?? 0.95,
            },
          ),
          precision: mean(values.map((v) => v[0])),
          recall: mean(values.map((v) => v[1])),
        };
      }),
    };
  });
}
