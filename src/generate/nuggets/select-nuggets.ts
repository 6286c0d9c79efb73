/**
 * Choosing the nuggets of a bank, exactly as the released selection step does
 * (manestay/dogmatiq `step4_select_top_nuggets.py`):
 *
 * - a bank with at most `topK` nuggets is kept whole, whatever the method (`main`, "using all
 *   nuggets"); no `model_score` is written then;
 * - `most-common`: sorted by (`num_paraphrases_total`, `num_answers`) from `metadata`, descending,
 *   a missing count as 0; Python's sort is stable, so ties keep bank order
 *   (`get_questions_with_counts`);
 * - `criteria`: the selector's decision value over the 19 features standardised over the bank's
 *   scored nuggets; nuggets without `metadata.quality` cannot be ranked and are never chosen
 *   (the released code drops them from its data frame); the score goes to
 *   `metadata.model_score` of each chosen nugget (`select_nuggets_with_model`);
 * - `hybrid`: nuggets whose counts are integers > 1 for both paraphrases and answers, in
 *   most-common order, capped at `int(topK × maxMostCommon)` when that fraction is below 1; the
 *   remaining slots by `criteria` over the other nuggets (`select_nuggets_most_common_model`,
 *   `filter_high_count_questions`);
 * - `sample`: `random.seed(seed); random.sample(nuggets, topK)` (`select_nuggets_random`).
 *
 * Sub-nuggets are deleted from the result unless kept (`--no_delete_subnuggets` there).
 */
import { CitegeistError, quoteValue } from '../../core/index.js';
import { isQuestion, type Nugget, type NuggetBank, nuggetEntries, questionId } from '../../formats/index.js';
import { isFloatAt, markFloat, orderedObject, PythonRandom } from '../../python-compat/index.js';
import { qualityFeatures } from './quality-features.js';
import { featureRow, type Selector, scoreRequest } from './selector.js';

export const SELECT_METHODS = ['most-common', 'criteria', 'hybrid', 'sample'] as const;
export type SelectMethod = (typeof SELECT_METHODS)[number];

export interface SelectOptions {
  method: SelectMethod;
  /** Nuggets to keep (default 20). */
  topK?: number;
  /** Hybrid: the largest share of slots filled by most-common (default 0.75, as the released pipeline runs it). */
  maxMostCommon?: number;
  /** Sample: the seed of Python's `random` (default 1234). */
  seed?: number;
  /** Criteria and hybrid: the trained selector. */
  selector?: Selector;
  keepSubNuggets?: boolean;
}

export interface SelectionReport {
  nuggets: number;
  selected: number;
  /** True when the bank had at most topK nuggets and was kept whole. */
  keptAll: boolean;
  byMostCommon: number;
  byCriteria: number;
  /** Nuggets the criteria selector could not score, with the reason. */
  unscored: { question: string; reason: string }[];
}

/** The count at `metadata[key]` (`metadata.get(key, 0)`); whether Python would see an int. */
function count(nugget: Nugget, key: string): { value: number; isInt: boolean } {
  const meta = nugget.metadata;
  const v = meta?.[key];
  if (meta == null || v === undefined) return { value: 0, isInt: true };
  if (typeof v === 'boolean') return { value: Number(v), isInt: true };
  if (typeof v !== 'number') return { value: 0, isInt: false };
  return { value: v, isInt: Number.isInteger(v) && !isFloatAt(meta, key) };
}

interface Counted {
  key: string;
  nugget: Nugget;
  paraphrases: ReturnType<typeof count>;
  answers: ReturnType<typeof count>;
}

/** `get_questions_with_counts`: every nugget, most paraphrases first, then most answers; stable. */
export function byCounts(entries: readonly [string, Nugget][]): Counted[] {
  return entries
    .map(([key, nugget]) => ({
      key,
      nugget,
      paraphrases: count(nugget, 'num_paraphrases_total'),
      answers: count(nugget, 'num_answers'),
    }))
    .sort((a, b) => b.paraphrases.value - a.paraphrases.value || b.answers.value - a.answers.value);
}

/** Ranks nuggets by the selector (best first, ties in bank order) and writes `model_score`. */
function rankByCriteria(
  entries: readonly [string, Nugget][],
  selector: Selector,
  topK: number,
  unscored: SelectionReport['unscored'],
  request: string,
): [string, Nugget][] {
  const rows: number[][] = [];
  const scored: [string, Nugget][] = [];
  for (const [key, nugget] of entries) {
    if (!isQuestion(nugget) || nugget.metadata == null) {
      unscored.push({ question: key, reason: 'no metadata' });
      continue;
    }
    const features = qualityFeatures(nugget);
    const row = features ? featureRow(features, selector.features) : { missing: 'metadata.quality' };
    if (!Array.isArray(row)) {
      unscored.push({ question: key, reason: `no ${row.missing}` });
      continue;
    }
    rows.push(row);
    scored.push([key, nugget]);
  }
  if (rows.length === 0 && entries.length > 0) {
    throw new CitegeistError(
      'NUGGETS_NOT_SCORED',
      `None of the ${entries.length} nuggets of request ${quoteValue(request)} to rank has the selector's features (the first, ${quoteValue(unscored[0]?.question, 60)}, has ${unscored[0]?.reason}).`,
      'Score the bank first: `citegeist nuggets score-quality --bank <dir> --model <spec>`.',
    );
  }
  const scores = scoreRequest(selector, rows);
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  return order.slice(0, topK).map(({ s, i }) => {
    const [key, nugget] = scored[i]!;
    const meta = nugget.metadata as Record<string, unknown>;
    meta.model_score = s;
    markFloat(meta, 'model_score');
    return [key, nugget];
  });
}

/** The id the reference sees: a question's id (md5 of its text when absent); claims have none. */
const idOf = (n: Nugget): string | null => (isQuestion(n) ? questionId(n) : null);

function requireSelector(options: SelectOptions): Selector {
  if (!options.selector) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      `Selection method ${quoteValue(options.method)} ranks nuggets with a trained selector, and none was given.`,
      'Pass --selector <file>, a file written by `citegeist nuggets train-selector`.',
    );
  }
  return options.selector;
}

/** Selects in place: the bank's `nugget_bank` is replaced by the chosen nuggets, in order. */
export function selectNuggets(bank: NuggetBank, options: SelectOptions): SelectionReport {
  const topK = options.topK ?? 20;
  const entries = nuggetEntries(bank);
  const report: SelectionReport = {
    nuggets: entries.length,
    selected: 0,
    keptAll: entries.length <= topK,
    byMostCommon: 0,
    byCriteria: 0,
    unscored: [],
  };
  let chosen: [string, Nugget][] = entries;
  if (!report.keptAll) chosen = choose(entries, topK, options, report, String(bank.query_id ?? '?'));
  if (!options.keepSubNuggets) for (const [, n] of chosen) delete n.sub_nuggets;
  // Keys are distinct, so `add_nuggets` merges nothing: the chosen nuggets in selection order.
  bank.nugget_bank = orderedObject(chosen);
  report.selected = chosen.length;
  return report;
}

function choose(
  entries: [string, Nugget][],
  topK: number,
  options: SelectOptions,
  report: SelectionReport,
  request: string,
): [string, Nugget][] {
  switch (options.method) {
    case 'most-common': {
      const top = byCounts(entries).slice(0, topK);
      report.byMostCommon = top.length;
      return top.map((c) => [c.key, c.nugget]);
    }
    case 'sample':
      return new PythonRandom(options.seed ?? 1234).sample(entries, topK);
    case 'criteria': {
      const top = rankByCriteria(entries, requireSelector(options), topK, report.unscored, request);
      report.byCriteria = top.length;
      return top;
    }
    case 'hybrid': {
      const selector = requireSelector(options);
      let high = byCounts(entries).filter(
        (c) => c.paraphrases.isInt && c.answers.isInt && c.paraphrases.value > 1 && c.answers.value > 1,
      );
      const share = options.maxMostCommon ?? 0.75;
      if (share < 1) high = high.slice(0, Math.trunc(topK * share));
      const first: [string, Nugget][] = high.slice(0, topK).map((c) => [c.key, c.nugget]);
      // The rest is ranked among nuggets whose question id was not taken (`create_bank_excluding_questions`).
      const taken = new Set(first.map(([, n]) => idOf(n)).filter((id) => id));
      const rest = entries.filter(([, n]) => !idOf(n) || !taken.has(idOf(n)!));
      const slots = topK - first.length;
      const more =
        slots > 0 && rest.length > 0 ? rankByCriteria(rest, selector, slots, report.unscored, request) : [];
      report.byMostCommon = first.length;
      report.byCriteria = more.length;
      return [...first, ...more];
    }
  }
}
