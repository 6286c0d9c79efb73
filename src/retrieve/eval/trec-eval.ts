import { CitegeistError } from '../../core/index.js';
import type { Qrels, QrelsEntry, Run, RunEntry } from '../../formats/index.js';
import { type ResolvedMeasure, resolveMeasures } from './measure-params.js';
import type { ResRelsJg, TopicView } from './measures/measure-def.js';
import { formPrefsCounts, type ResultsPrefs } from './prefs-counts.js';
import type { JudgmentGroup, PrefEntry, Prefs, QrelsJg, ZScores } from './rel-info-files.js';
import { mergeJudgements, type ResRels, rankRun } from './res-rels.js';

/** Judgements in one of trec_eval's `-R` formats. */
export type RelInfo =
  | { format: 'qrels'; qrels: Qrels }
  | { format: 'qrels_jg'; qrelsJg: QrelsJg }
  | { format: 'prefs'; prefs: Prefs };

export interface TrecEvalOptions {
  /** Measures as on trec_eval's command line: `map`, `P.5,10`, `ndcg_cut.10`, `official`. Default `official`. */
  measures?: readonly string[];
  /** `-c`: average over every judged topic; a topic missing from the run is scored as trec_eval does. */
  complete?: boolean;
  /** `-l`: the minimum grade that counts as relevant (default 1). */
  relevanceLevel?: number;
  /** `-M`: evaluate only the top n documents per topic. */
  maxDocsPerTopic?: number;
  /** `-J`: drop unjudged documents from the ranking before scoring. */
  judgedOnly?: boolean;
  /** `-N`: documents in the collection (the fourth utility coefficient needs it). */
  numDocsInColl?: number;
  /** `-Z`: print z-scores against these per-topic means and deviations instead of raw values. */
  zscores?: ZScores;
  /**
   * A judged topic missing from the run, without `-c`: `repeat` (default) does what trec_eval 10.0
   * does, `skip` what its help text says (the topic is ignored). See `TrecEvalResult.repeatedTopics`.
   */
  missingTopics?: 'repeat' | 'skip';
}

/** One printed value: `name` as trec_eval prints it (`P_10`); `text` for runid and relstring. */
export interface TrecValue {
  name: string;
  value: number;
  integer: boolean;
  text?: string;
}

export interface TrecEvalResult {
  /** Evaluated topics in trec_eval's order (byte order of topic ids), with their per-topic values. */
  queries: { qid: string; values: TrecValue[] }[];
  /** The `all` lines. */
  summary: TrecValue[];
  numQueries: number;
  runId: string;
  /** Values are z-scores (`-Z`): printed with a `Z` prefix and four decimals. */
  zscores: boolean;
  /**
   * Judged topics without results that were not scored (only without -c): all of them with
   * `missingTopics: 'skip'`; otherwise those before the first topic the run has (where trec_eval
   * 10.0 reads an unset pointer).
   */
  unscoredTopics: string[];
  /**
   * Judged topics without results (without -c) in whose place the preceding scored topic was
   * counted again, as trec_eval 10.0 does: its per-topic lines print again under that topic's id,
   * and the means include it twice.
   */
  repeatedTopics: { missing: string; repeated: string }[];
}

/** trec_eval.c scores a judged topic missing from the run (-c) as this one unjudged document. */
const BOGUS: readonly RunEntry[] = [{ docno: 'ceci_nest_pas_un_docno', sim: 1 }];
/** get_zscores.c / convert_zscores.c: printed when a topic or measure has no mean. */
const MISSING_ZSCORE = -1000000;

function relTopics(rel: RelInfo): Map<string, unknown> {
  return rel.format === 'qrels'
    ? rel.qrels.topics
    : rel.format === 'qrels_jg'
      ? rel.qrelsJg.topics
      : rel.prefs.topics;
}

function checkInputs(measures: ResolvedMeasure[], format: RelInfo['format']): void {
  for (const m of measures) {
    const need = m.def.input;
    if (need === 'any' || need === format) continue;
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      `Measure ${m.def.name} needs ${need} judgements, but the judgements were read as ${format} (trec_eval cannot calculate it either).`,
      need === 'prefs'
        ? 'Read the judgements with -R prefs or -R qrels_prefs.'
        : `Read the judgements with -R ${need}, or ask for measures of the ${format} format (sets: official, all_trec for qrels; all_prefs for prefs; qrels_jg for qrels_jg).`,
    );
  }
}

/** The views of one topic, each built at most once (form_res_rels.c and friends cache per topic). */
function topicView(
  qid: string,
  judgements: unknown,
  entries: readonly RunEntry[],
  options: Required<Omit<TrecEvalOptions, 'zscores' | 'measures' | 'missingTopics'>>,
): TopicView {
  const settings = {
    relevanceLevel: options.relevanceLevel,
    maxDocs: options.maxDocsPerTopic,
    judgedOnly: options.judgedOnly,
  };
  let ranked: RunEntry[] | undefined;
  let rr: ResRels | undefined;
  let jg: ResRelsJg | undefined;
  let prefs: ResultsPrefs | undefined;
  const rankedRun = () => (ranked ??= rankRun(qid, entries, settings.maxDocs));
  return {
    relevanceLevel: options.relevanceLevel,
    numDocsInColl: options.numDocsInColl,
    resRels: () => (rr ??= mergeJudgements(qid, judgements as QrelsEntry[], rankedRun(), settings)),
    resRelsJg: () =>
      (jg ??= (judgements as JudgmentGroup[]).map((g) =>
        mergeJudgements(qid, g.entries, rankedRun(), settings),
      )),
    prefs: () => (prefs ??= formPrefsCounts(qid, judgements as PrefEntry[], entries, settings.maxDocs)),
  };
}

/** Relevant judgements (grade > 0) over every judged topic: m_num_rel.c's summary under -c. */
function allJudgedRelevant(rel: RelInfo): number {
  let n = 0;
  if (rel.format === 'qrels')
    for (const list of rel.qrels.topics.values()) for (const q of list) n += q.rel > 0 ? 1 : 0;
  else if (rel.format === 'qrels_jg') {
    for (const groups of rel.qrelsJg.topics.values())
      for (const g of groups) for (const q of g.entries) n += q.rel > 0 ? 1 : 0;
  } else {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      'num_rel with -c needs qrels or qrels_jg judgements (m_num_rel.c stops here too).',
      'Drop num_rel or -c for preference judgements.',
    );
  }
  return n;
}

/**
 * trec_eval 10.0 (trec_eval.c main loop): every judged topic with results (with -c, every judged
 * topic) is scored by every requested measure; values are optionally turned into z-scores, then
 * summed for the summary, which each measure finishes its own way (mean, sum, geometric mean…).
 */
export function trecEval(
  judgements: Qrels | RelInfo,
  run: Run,
  options: TrecEvalOptions = {},
): TrecEvalResult {
  const rel: RelInfo = 'format' in judgements ? judgements : { format: 'qrels', qrels: judgements };
  const measures = resolveMeasures(options.measures?.length ? options.measures : ['official']);
  checkInputs(measures, rel.format);
  const settings = {
    complete: options.complete ?? false,
    relevanceLevel: options.relevanceLevel ?? 1,
    maxDocsPerTopic: options.maxDocsPerTopic ?? Number.POSITIVE_INFINITY,
    judgedOnly: options.judgedOnly ?? false,
    numDocsInColl: options.numDocsInColl ?? 0,
  };
  if (settings.complete && run.topics.size === 0) {
    throw new CitegeistError(
      'NO_ROWS',
      'The run has no result lines.',
      'Check the run file (trec_eval cannot read an empty one either).',
    );
  }
  const sums = measures.map((m) => new Array<number>(m.names.length).fill(0));
  const queries: TrecEvalResult['queries'] = [];
  const unscoredTopics: string[] = [];
  const repeatedTopics: TrecEvalResult['repeatedTopics'] = [];
  let previous: { qid: string; values: TrecValue[]; added: number[][] } | null = null;
  for (const [qid, judged] of relTopics(rel)) {
    let entries: readonly RunEntry[] | undefined = run.topics.get(qid);
    const bogus = entries === undefined;
    if (bogus) {
      if (!settings.complete) {
        // trec_eval.c (10.0, usnistgov/trec_eval@9d55fc96, main(): the loop over rel_info) has no
        // `continue` here: `this_result` still points at the last topic found in the run, every
        // measure's te_form_res_rels (form_res_rels.c) returns that topic's cached values, and
        // q_eval.qid is that topic's id. So the preceding topic is printed and averaged again.
        // Before the first topic found, the pointer is unset (the C crashes): not scored.
        if (previous && options.missingTopics !== 'skip') {
          queries.push({ qid: previous.qid, values: previous.values });
          for (const [mi, adds] of previous.added.entries()) {
            const row = sums[mi] as number[];
            for (const [vi, v] of adds.entries()) row[vi] = (row[vi] as number) + v;
          }
          repeatedTopics.push({ missing: qid, repeated: previous.qid });
        } else unscoredTopics.push(qid);
        continue;
      }
      entries = BOGUS;
    }
    const view = topicView(qid, judged, entries as RunEntry[], settings);
    const zrow = options.zscores?.topics.get(qid);
    const values: TrecValue[] = [];
    const added = measures.map((m) => new Array<number>(m.names.length).fill(0));
    measures.forEach((m, mi) => {
      const computed = m.def.compute(view, m.params, m.names.length);
      let text = m.def.text ? `'${m.def.text(view, m.params)}'` : undefined;
      m.names.forEach((name, vi) => {
        let v = computed[vi] ?? 0;
        if (bogus) {
          // trec_eval.c zeroes what the stand-in document would otherwise count.
          if (name === 'num_ret' || name === 'utility' || name === 'rbp_resid' || name.startsWith('unj'))
            v = 0;
          if (name === 'relstring') text = "''";
        }
        if (options.zscores) {
          const z = zrow?.get(name);
          v = !z ? MISSING_ZSCORE : z.stddev ? (v - z.mean) / z.stddev : v === z.mean ? 0 : MISSING_ZSCORE;
        }
        (sums[mi] as number[])[vi] = ((sums[mi] as number[])[vi] as number) + v;
        (added[mi] as number[])[vi] = v;
        if (m.def.perTopic)
          values.push({
            name,
            value: v,
            integer: m.def.integer ?? false,
            ...(text !== undefined ? { text } : {}),
          });
      });
    });
    queries.push({ qid, values });
    if (!bogus) previous = { qid, values, added };
  }
  if (queries.length === 0) {
    throw new CitegeistError(
      'NOTHING_IN_COMMON',
      'No topic has both judgements and results in the run.',
      'Check that the topic ids in column 1 of both files match (or use -c to score missing topics).',
    );
  }
  const n = queries.length;
  const summary: TrecValue[] = [];
  measures.forEach((m, mi) => {
    m.names.forEach((name, vi) => {
      const sum = (sums[mi] as number[])[vi] as number;
      const integer = m.def.integer ?? false;
      switch (m.def.summary) {
        case 'runid':
          summary.push({ name, value: 0, integer: false, text: run.runId });
          break;
        case 'count':
          summary.push({ name, value: n, integer });
          break;
        case 'sum':
          summary.push({ name, value: sum, integer });
          break;
        case 'num_rel':
          summary.push({ name, value: settings.complete ? allJudgedRelevant(rel) : sum, integer });
          break;
        case 'geometric':
          summary.push({ name, value: Math.exp(sum / n), integer });
          break;
        case 'mean':
          summary.push({ name, value: sum / n, integer });
          break;
        default:
          break;
      }
    });
  });
  return {
    queries,
    summary,
    numQueries: n,
    runId: run.runId,
    zscores: options.zscores !== undefined,
    unscoredTopics,
    repeatedTopics,
  };
}

/** The per-topic values of one printed measure name (e.g. `ndcg_cut_10`), for paired comparisons. */
export function perQueryValues(result: TrecEvalResult, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const q of result.queries) {
    const v = q.values.find((x) => x.name === name);
    if (v) out.set(q.qid, v.value);
  }
  return out;
}
