import { CitegeistError, isCitegeistError, quoteValue } from '../../core/index.js';
import type { Qrels, QrelsEntry, Run, RunEntry } from '../../formats/index.js';
import { type ResolvedMeasure, resolveMeasures } from './measure-params.js';
import type { ResRelsJg, TopicView } from './measures/measure-def.js';
import { formPrefsCounts, type ResultsPrefs } from './prefs-counts.js';
import type { JudgmentGroup, PrefEntry, Prefs, QrelsJg, ZScores } from './rel-info-files.js';
import { mergeJudgements, type ResRels, rankRun } from './res-rels.js';
import type { TrecEvalResult, TrecValue } from './trec-eval-result.js';
import { isTrecEvalStopped, TrecEvalStopped } from './trec-eval-stopped.js';

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
   * A judged topic missing from the run, without `-c`: `fail` (default) stops there as trec_eval
   * 10.0 does (a `TrecEvalStopped` with code TREC_TOPIC_NOT_IN_RUN, carrying the topics scored
   * before it); `skip` scores only the topics in both files, as trec_eval 9.0.x did and as 10.0's
   * help text still describes (listed in `TrecEvalResult.unscoredTopics`).
   */
  missingTopics?: 'fail' | 'skip';
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

/** The error trec_eval 10.0 stops with (trec_eval.c, commit 9812815) for a judged topic the run lacks. */
function topicNotInRun(qid: string): CitegeistError {
  return new CitegeistError(
    'TREC_TOPIC_NOT_IN_RUN',
    `Topic ${quoteValue(qid)} is in the judgements but has no results in the run (trec_eval 10.0 stops here too, after the lines of the topics before it).`,
    'Use -c (complete: true) to score topics missing from the run as 0, which is what most evaluations want, or --skip-missing-topics (missingTopics: "skip") to score only the topics in both files, as trec_eval 9.0.x did.',
  );
}

type Settings = Required<Omit<TrecEvalOptions, 'zscores' | 'measures' | 'missingTopics'>>;

/** One topic's printed values and what it adds to each measure's sums (trec_eval.c, one loop pass). */
function scoreTopic(
  qid: string,
  judged: unknown,
  entries: readonly RunEntry[],
  bogus: boolean,
  measures: ResolvedMeasure[],
  settings: Settings,
  zscores: ZScores | undefined,
): { values: TrecValue[]; added: number[][] } {
  const view = topicView(qid, judged, entries, settings);
  const zrow = zscores?.topics.get(qid);
  const values: TrecValue[] = [];
  const added = measures.map((m) => new Array<number>(m.names.length).fill(0));
  measures.forEach((m, mi) => {
    const computed = m.def.compute(view, m.params, m.names.length);
    let text = m.def.text ? `'${m.def.text(view, m.params)}'` : undefined;
    m.names.forEach((name, vi) => {
      let v = computed[vi] ?? 0;
      if (bogus) {
        // trec_eval.c zeroes what the stand-in document would otherwise count.
        if (name === 'num_ret' || name === 'utility' || name === 'rbp_resid' || name.startsWith('unj')) v = 0;
        if (name === 'relstring') text = "''";
      }
      if (zscores) {
        const z = zrow?.get(name);
        v = !z ? MISSING_ZSCORE : z.stddev ? (v - z.mean) / z.stddev : v === z.mean ? 0 : MISSING_ZSCORE;
      }
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
  return { values, added };
}

/** A CitegeistError met while scoring, re-thrown with what trec_eval had printed before it. */
function stopped(error: unknown, partial: () => TrecEvalResult, at: TrecEvalStopped['stoppedAt']): unknown {
  return isCitegeistError(error) && !isTrecEvalStopped(error)
    ? new TrecEvalStopped(error, partial(), at)
    : error;
}

/**
 * trec_eval 10.0 (trec_eval.c main loop, release usnistgov/trec_eval@f4253652): every judged topic
 * is scored by every requested measure, in byte order of topic ids; values are optionally turned
 * into z-scores, then summed for the summary, which each measure finishes its own way (mean, sum,
 * geometric mean…). A judged topic missing from the run is scored as one unjudged stand-in
 * document with -c; without -c the release stops there (commit 9812815), as it stops on any other
 * error met while scoring: those errors are thrown as `TrecEvalStopped`, which carries the topics
 * and summary values trec_eval prints before it exits.
 */
export function trecEval(
  judgements: Qrels | RelInfo,
  run: Run,
  options: TrecEvalOptions = {},
): TrecEvalResult {
  const rel: RelInfo = 'format' in judgements ? judgements : { format: 'qrels', qrels: judgements };
  const measures = resolveMeasures(options.measures?.length ? options.measures : ['official']);
  checkInputs(measures, rel.format);
  const settings: Settings = {
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
  const summary: TrecValue[] = [];
  const result = (): TrecEvalResult => ({
    queries: [...queries],
    summary: [...summary],
    numQueries: queries.length,
    runId: run.runId,
    zscores: options.zscores !== undefined,
    unscoredTopics: [...unscoredTopics],
  });
  for (const [qid, judged] of relTopics(rel)) {
    let entries: readonly RunEntry[] | undefined = run.topics.get(qid);
    const bogus = entries === undefined;
    if (bogus) {
      if (!settings.complete) {
        if (options.missingTopics === 'skip') {
          unscoredTopics.push(qid);
          continue;
        }
        throw new TrecEvalStopped(topicNotInRun(qid), result(), { stage: 'topic', qid });
      }
      entries = BOGUS;
    }
    let scored: ReturnType<typeof scoreTopic>;
    try {
      scored = scoreTopic(qid, judged, entries as RunEntry[], bogus, measures, settings, options.zscores);
    } catch (error) {
      throw stopped(error, result, { stage: 'topic', qid });
    }
    for (const [mi, adds] of scored.added.entries()) {
      const row = sums[mi] as number[];
      for (const [vi, v] of adds.entries()) row[vi] = (row[vi] as number) + v;
    }
    queries.push({ qid, values: scored.values });
  }
  if (queries.length === 0) {
    throw new CitegeistError(
      'NOTHING_IN_COMMON',
      'No topic has both judgements and results in the run.',
      'Check that the topic ids in column 1 of both files match (or use -c to score missing topics).',
    );
  }
  const n = queries.length;
  // trec_eval.c finishes and prints one measure's summary at a time, so a measure that cannot be
  // finished leaves the lines of the measures before it on stdout.
  for (const [mi, m] of measures.entries()) {
    try {
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
    } catch (error) {
      throw stopped(error, result, { stage: 'summary', measure: m.def.name });
    }
  }
  return result();
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
