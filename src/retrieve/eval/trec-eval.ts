import { CitegeistError, quoteValue } from '../../core/index.js';
import { formResRels } from './res-rels.js';
import type { Qrels, Run, RunEntry } from './trec-files.js';
import { MEASURES, type MeasureDef, type MeasureParams, NICKNAMES } from './trec-measures.js';

export interface TrecEvalOptions {
  /** Measures as on trec_eval's command line: `map`, `P.5,10`, `ndcg_cut.10`, `official`. Default `official`. */
  measures?: readonly string[];
  /** `-c`: average over every qrels topic; a topic missing from the run scores 0. */
  complete?: boolean;
  /** `-l`: the minimum grade that counts as relevant (default 1). */
  relevanceLevel?: number;
  /** `-M`: evaluate only the top n documents per topic. */
  maxDocsPerTopic?: number;
}

/** One printed value: `name` as trec_eval prints it (`P_10`), integer values print without decimals. */
export interface TrecValue {
  name: string;
  value: number;
  integer: boolean;
  /** Set for `runid`, whose value is text. */
  text?: string;
}

export interface TrecEvalResult {
  /** Evaluated topics in trec_eval's order (byte order of topic ids), with their values. */
  queries: { qid: string; values: TrecValue[] }[];
  /** The `all` lines. */
  summary: TrecValue[];
  numQueries: number;
  runId: string;
}

interface Resolved {
  def: MeasureDef;
  params: MeasureParams;
  names: string[];
}

/** trec_eval 10.0 evaluation of a run against qrels (see docs/retrieval.md for the exact semantics). */
export function trecEval(qrels: Qrels, run: Run, options: TrecEvalOptions = {}): TrecEvalResult {
  const measures = resolveMeasures(options.measures ?? ['official']);
  const level = options.relevanceLevel ?? 1;
  const sums = measures.map((m) => m.names.map(() => 0));
  const queries: TrecEvalResult['queries'] = [];
  for (const [qid, judgements] of qrels.topics) {
    let entries: readonly RunEntry[] | undefined = run.topics.get(qid);
    const missing = entries === undefined;
    if (missing) {
      if (!options.complete) continue;
      // trec_eval scores a missing topic as a ranking of one unjudged document, then zeroes num_ret.
      entries = [{ docno: 'ceci_nest_pas_un_docno', sim: 1 }];
    }
    const rr = formResRels(qid, judgements, entries as RunEntry[], level, options.maxDocsPerTopic);
    const values: TrecValue[] = [];
    measures.forEach((m, mi) => {
      const computed = m.def.compute(rr, { relevanceLevel: level, params: m.params });
      if (missing && m.def.name === 'num_ret') computed[0] = 0;
      computed.forEach((v, vi) => {
        (sums[mi] as number[])[vi] = ((sums[mi] as number[])[vi] as number) + v;
        if (m.def.perQuery) values.push({ name: m.names[vi] as string, value: v, integer: m.def.integer });
      });
    });
    queries.push({ qid, values });
  }
  if (queries.length === 0) {
    throw new CitegeistError(
      'TREC_NO_TOPICS',
      'No topic has both judgements in the qrels and results in the run.',
      'Check that the topic ids in column 1 of both files match (or use -c to score missing topics as 0).',
    );
  }
  const n = queries.length;
  const summary: TrecValue[] = [];
  measures.forEach((m, mi) => {
    m.names.forEach((name, vi) => {
      const sum = (sums[mi] as number[])[vi] as number;
      const integer = m.def.integer;
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
        case 'gm':
          summary.push({ name, value: Math.exp(sum / n), integer });
          break;
        default:
          summary.push({ name, value: sum / n, integer });
      }
    });
  });
  return { queries, summary, numQueries: n, runId: run.runId };
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

function measureError(arg: string, why: string): CitegeistError {
  return new CitegeistError(
    'UNKNOWN_MEASURE',
    `Measure ${quoteValue(arg)}: ${why}.`,
    `Supported: ${MEASURES.map((m) => m.name).join(', ')} and the sets ${Object.keys(NICKNAMES).join(', ')}; cutoffs as in "P.5,10".`,
  );
}

/** Resolves `-m` arguments into measures in trec_eval's print order (first parameters given win). */
export function resolveMeasures(args: readonly string[]): Resolved[] {
  const marked = new Set<string>();
  const paramText = new Map<string, string>();
  for (const arg of args) {
    const dot = arg.indexOf('.');
    const name = dot >= 0 ? arg.slice(0, dot) : arg;
    if (dot >= 0) {
      const text = arg.slice(dot + 1);
      if (text === '') throw measureError(arg, 'empty parameter list after "."');
      if (!paramText.has(name)) paramText.set(name, text);
    }
    const nick = NICKNAMES[name];
    if (nick) for (const m of nick) marked.add(m);
    else if (MEASURES.some((m) => m.name === name)) marked.add(name);
    else throw measureError(arg, 'not a measure citegeist implements');
  }
  return MEASURES.filter((m) => marked.has(m.name)).map((def) => {
    const params = parseParams(def, paramText.get(def.name) ?? null);
    return { def, params, names: valueNames(def, params) };
  });
}

function parseParams(def: MeasureDef, text: string | null): MeasureParams {
  const none: MeasureParams = { cutoffs: def.defaults, pairs: [], printable: null };
  if (text === null || def.params === 'none') return none;
  const parts = text.split(',');
  if (def.params === 'gain-pairs') {
    const pairs = parts.map((p) => {
      const m = /^(-?\d+)=([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/.exec(p);
      if (!m) throw measureError(`${def.name}.${text}`, `malformed pair ${quoteValue(p)} (want level=gain)`);
      return { level: Number(m[1]), gain: Number(m[2]) };
    });
    return { cutoffs: [], pairs, printable: text };
  }
  const integer = def.params === 'long-cutoffs';
  const cutoffs = parts.map((p) => {
    const ok = integer ? /^\d+$/.test(p) : /^(?:\d+\.?\d*|\.\d+)$/.test(p);
    if (!ok)
      throw measureError(
        `${def.name}.${text}`,
        `cutoff ${quoteValue(p)} is not a ${integer ? 'positive integer' : 'number'}`,
      );
    return Number(p);
  });
  cutoffs.sort((a, b) => a - b);
  if (integer && (cutoffs[0] as number) <= 0)
    throw measureError(`${def.name}.${text}`, 'cutoffs must be positive');
  for (let i = 1; i < cutoffs.length; i++) {
    if (cutoffs[i] === cutoffs[i - 1]) throw measureError(`${def.name}.${text}`, 'duplicate cutoffs');
  }
  return { cutoffs, pairs: [], printable: text };
}

function valueNames(def: MeasureDef, params: MeasureParams): string[] {
  if (def.params === 'long-cutoffs') return params.cutoffs.map((c) => `${def.name}_${c}`);
  if (def.params === 'double-cutoffs') return params.cutoffs.map((c) => `${def.name}_${c.toFixed(2)}`);
  if (def.params === 'gain-pairs' && params.printable) return [`${def.name}_${params.printable}`];
  return [def.name];
}
