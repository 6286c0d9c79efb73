import type { ResultsPrefs } from '../prefs-counts.js';
import type { ResRels } from '../res-rels.js';

/**
 * How a trec_eval measure is declared (trec_eval.h, TREC_MEAS), reduced to what changes behaviour:
 * how its parameters are read (init_meas), which judgement format it needs, how it is printed per
 * topic and in the summary, and how topic values are combined (acc_meas + calc_avg_meas).
 */
export type ParamKind =
  /** No parameters (te_init_meas_s_double / _s_long / _empty). */
  | 'none'
  /** Integer cut-offs, sorted, one value each, named `name_5` (te_init_meas_a_double_cut_long). */
  | 'cut-long'
  /** Fractional cut-offs, sorted, one value each, named `name_0.20` (…_cut_double). */
  | 'cut-double'
  /** A list of numbers for one value, named `name_<text>` when given (…_s_double_p_double). */
  | 'double-list'
  /** `key=value` pairs for one value, named `name_<text>` when given (…_s_double_p_pair). */
  | 'pairs';

export type Summary =
  /** Mean over topics (te_calc_avg_meas_s / _a_cut). */
  | 'mean'
  /** Sum over topics (te_calc_avg_meas_empty after te_acc_meas_s). */
  | 'sum'
  /** exp(mean of per-topic logs) (te_calc_avg_meas_s_gm). */
  | 'geometric'
  /** The number of topics (m_num_q.c). */
  | 'count'
  /** Sum, except with -c: relevant judgements (grade > 0) over every qrels topic (m_num_rel.c). */
  | 'num_rel'
  /** Nothing printed (relstring). */
  | 'none'
  /** The run tag (m_runid.c). */
  | 'runid';

export type Input = 'qrels' | 'qrels_jg' | 'prefs' | 'any';

export interface MeasureParams {
  /** Cut-offs (sorted) or the number list, defaults when no parameter was given. */
  values: readonly number[];
  /** `key=value` pairs in the order given. */
  pairs: readonly { key: string; value: number }[];
  /** The parameter text as given, or null for the defaults. */
  text: string | null;
}

/** One judgment group's merged view (form_res_rels_jg.c). */
export type ResRelsJg = ResRels[];

/** What a measure can ask about the topic being evaluated (each view built once, on demand). */
export interface TopicView {
  relevanceLevel: number;
  /** -N: documents in the collection (utility). */
  numDocsInColl: number;
  resRels(): ResRels;
  resRelsJg(): ResRelsJg;
  prefs(): ResultsPrefs;
}

export interface MeasureDef {
  name: string;
  /** One line for --help and errors. */
  description: string;
  params: ParamKind;
  defaults?: readonly number[];
  /** Measures that share one parameter block (m_ndcg.c: dcg, ideal_dcg, ndcg). */
  sharedParams?: string;
  /** The calculation needs exactly this many numbers (utility). */
  exactParams?: number;

  input: Input;
  /** Integer values print as %ld (s_long measures). */
  integer?: boolean;
  /** Printed per topic with -q (false for num_q, gm_map, gm_bpref, runid). */
  perTopic: boolean;
  summary: Summary;
  /** The topic's values, one per printed name (missing entries stay 0, as C leaves them). */
  compute(view: TopicView, params: MeasureParams, count: number): number[];
  /** relstring only: the per-topic text. */
  text?(view: TopicView, params: MeasureParams): string;
}

/** C `(long) x` for the cut-off arithmetic (truncation toward zero). */
export function toLong(x: number): number {
  return Math.trunc(x);
}

/**
 * The shared loop of the cut-off measures (m_P.c, m_recall.c, m_success.c, …): walks the ranking
 * and, at each cut-off k, stores `at(k, soFar)` where soFar counts ranks < k that `hit`; cut-offs
 * past the ranking use the final count.
 */
export function atCutoffs(
  rels: Int32Array,
  numRet: number,
  cutoffs: readonly number[],
  hit: (rel: number) => boolean,
  at: (k: number, soFar: number) => number,
): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  let soFar = 0;
  for (let i = 0; i < numRet && c < cutoffs.length; i++) {
    if (i === cutoffs[c]) {
      out[c] = at(i, soFar);
      c++;
      if (c === cutoffs.length) break;
    }
    if (hit(rels[i] as number)) soFar++;
  }
  for (; c < cutoffs.length; c++) out[c] = at(cutoffs[c] as number, soFar);
  return out;
}
