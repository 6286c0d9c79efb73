import { CitegeistError, quoteValue } from '../../core/index.js';
import {
  aggregatorOf,
  answerEntries,
  bankQueryId,
  isQuestion,
  type NuggetBank,
  nuggetEntries,
} from '../../formats/index.js';

/** One question nugget as scoring needs it. */
export interface IndexedNugget {
  question: string;
  aggregator: 'AND' | 'OR';
  answers: ReadonlySet<string>;
  importance: number | string | null;
  weight: number;
}

/** A request's bank, prepared once for scoring many reports. */
export interface NuggetIndex {
  queryId: string;
  nuggets: Map<string, IndexedNugget>;
  count: number;
  weightedCount: number;
  /** Importance labels that had no numeric weight (weighted as 1). */
  unweightedLabels: string[];
}

export interface WeightOptions {
  /** Weights of importance labels, e.g. `{vital: 2, okay: 1}`; numeric importances are used as is. */
  labelWeights?: Readonly<Record<string, number>>;
}

/**
 * A nugget's weight for the `_weighted` metrics: its numeric importance, a configured label weight,
 * else 1 (the weight Auto-ARGUE's published TSV shows for banks without importances).
 */
function weightOf(importance: number | string | null | undefined, options: WeightOptions): number | null {
  if (importance === null || importance === undefined) return 1;
  if (typeof importance === 'number') return importance;
  const label = options.labelWeights?.[importance];
  if (label !== undefined) return label;
  const n = Number(importance);
  return importance.trim() !== '' && Number.isFinite(n) ? n : null;
}

/**
 * Indexes a bank's top-level question nuggets. Claims are refused (ARGUE scores question-answer
 * nuggets); NOT and SUM aggregations are refused too (no published rule scores them).
 */
export function indexNuggetBank(bank: NuggetBank, where: string, options: WeightOptions = {}): NuggetIndex {
  const nuggets = new Map<string, IndexedNugget>();
  const unweighted = new Set<string>();
  let weightedCount = 0;
  for (const [key, n] of nuggetEntries(bank)) {
    if (!isQuestion(n)) {
      throw new CitegeistError(
        'NUGGET_UNSUPPORTED',
        `${where}: ${quoteValue(key)} is a claim nugget; ARGUE scores question nuggets with answers.`,
        'Use a question-answer nugget bank (claims are scored with nuggetizer assignments instead).',
      );
    }
    const agg = aggregatorOf(n);
    if (agg === 'NOT' || agg === 'SUM') {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${where}: nugget ${quoteValue(key)} has aggregator_type ${agg}, which ARGUE does not define.`,
        'Set aggregator_type to AND or OR.',
      );
    }
    let weight = weightOf(n.importance, options);
    if (weight === null) {
      unweighted.add(String(n.importance));
      weight = 1;
    }
    weightedCount += weight;
    nuggets.set(key, {
      question: key,
      aggregator: agg === 'AND' ? 'AND' : 'OR',
      answers: new Set(answerEntries(n).map(([k]) => k)),
      importance: n.importance ?? null,
      weight,
    });
  }
  return {
    queryId: bankQueryId(bank),
    nuggets,
    count: nuggets.size,
    weightedCount,
    unweightedLabels: [...unweighted],
  };
}
