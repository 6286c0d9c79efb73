import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQrels, parseRun } from '../../formats/trec-files.js';
import { formatFixed4, formatLong } from './c-format.js';
import { formatTrecEval } from './format-trec-eval.js';
import { resolveMeasures } from './measure-params.js';
import { parsePrefs, parseQrelsJg, parseZScores } from './rel-info-files.js';
import { perQueryValues, trecEval } from './trec-eval.js';
import { isTrecEvalStopped, type TrecEvalStopped } from './trec-eval-stopped.js';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', 'trec-eval-10.0', name), 'utf8');
const summary = (r: ReturnType<typeof trecEval>, name: string) =>
  r.summary.find((v) => v.name === name)?.value;

describe('trec_eval 10.0 rules beyond the suite', () => {
  const qrels = parseQrels('1 0 a 2\n1 0 b 1\n1 0 c 0\n2 0 x 1\n2 0 y 3\n3 0 z 1\n');
  const run = parseRun('1 Q0 a 1 2 r\n1 Q0 c 2 1 r\n2 Q0 y 1 1 r\n');

  it('-c -l2: the num_rel summary recounts grade > 0 over every judged topic (m_num_rel.c), not the topic sum', () => {
    const r = trecEval(qrels, run, { measures: ['num_rel'], complete: true, relevanceLevel: 2 });
    const perTopic = [...perQueryValues(r, 'num_rel').values()];
    expect(perTopic).toEqual([1, 1, 0]);
    expect(summary(r, 'num_rel')).toBe(5);
    // Without -c (topic 3, not in the run, skipped on request) the topic sum: 1 + 1.
    const skip = { measures: ['num_rel'], relevanceLevel: 2, missingTopics: 'skip' as const };
    expect(summary(trecEval(qrels, run, skip), 'num_rel')).toBe(2);
  });

  it('without -c, a judged topic missing from the run stops the evaluation (trec_eval 10.0, commit 9812815)', () => {
    let error: unknown;
    try {
      trecEval(qrels, run, { measures: ['map'] });
    } catch (e) {
      error = e;
    }
    expect(isTrecEvalStopped(error)).toBe(true);
    const stop = error as TrecEvalStopped;
    expect([stop.code, stop.stoppedAt]).toEqual(['TREC_TOPIC_NOT_IN_RUN', { stage: 'topic', qid: '3' }]);
    // Topics 1 and 2 were scored (and printed under -q) before the stop; no summary.
    expect([stop.partial.queries.map((q) => q.qid), stop.partial.summary]).toEqual([['1', '2'], []]);
    // The help text's rule (and trec_eval 9.0.x's) on request; -c scores the topic as 0.
    const skipped = trecEval(qrels, run, { measures: ['map'], missingTopics: 'skip' });
    expect([skipped.queries.map((q) => q.qid), skipped.unscoredTopics]).toEqual([['1', '2'], ['3']]);
    expect(trecEval(qrels, run, { measures: ['map'], complete: true }).numQueries).toBe(3);
  });

  it('-c scores a missing topic as one unjudged document, then clears num_ret, unj, relstring (trec_eval.c)', () => {
    const r = trecEval(qrels, run, {
      measures: ['num_ret', 'unj', 'relstring', 'relstring.3'],
      complete: true,
    });
    const t3 = r.queries.find((q) => q.qid === '3')?.values ?? [];
    expect(t3.find((v) => v.name === 'num_ret')?.value).toBe(0);
    expect(t3.find((v) => v.name === 'unj_5')?.value).toBe(0);
    // relstring.3 prints as relstring_3, which trec_eval.c does not clear: the stand-in shows as '-'.
    expect(t3.find((v) => v.name === 'relstring_3')?.text).toBe("'-'");
  });

  it('reads -m parameters as meas_init.c does', () => {
    const names = (args: string[]) => resolveMeasures(args).flatMap((m) => m.names);
    expect(names(['ndcg_cut.10,23.4'])).toEqual(['ndcg_cut_10', 'ndcg_cut_23']);
    expect(names(['iprec_at_recall.0.125,.5'])).toEqual(['iprec_at_recall_0.12', 'iprec_at_recall_0.50']);
    expect(names(['relstring.20', 'utility.2,-1,0,0'])).toEqual(['relstring_20', 'utility_2,-1,0,0']);
    // dcg, ideal_dcg and ndcg share one parameter block in m_ndcg.c.
    expect(names(['dcg.1=3', 'ndcg'])).toEqual(['dcg_1=3', 'ndcg_1=3']);
    expect(() => names(['ndcg.1=3,'])).toThrow(/malformed pair/);
    expect(() => names(['utility.1,2'])).toThrow(/exactly 4/);
    expect(() => names(['P.0'])).toThrow(/positive/);
  });

  it('formats like C printf', () => {
    expect(formatFixed4(Number.NaN)).toBe('  -nan');
    expect(formatFixed4(-0)).toBe('-0.0000');
    expect(formatFixed4(-1000000)).toBe('-1000000.0000');
    expect(formatLong(-2.7)).toBe('-2');
  });

  it('-Z prints z-scores with a Z prefix, -1000000 where the file has no entry', () => {
    const z = parseZScores('1 map 0.25 0.25\n1 num_ret 1 0\n');
    const r = trecEval(qrels, run, { measures: ['map', 'num_ret'], zscores: z, missingTopics: 'skip' });
    const out = formatTrecEval(r, { perQuery: true });
    expect(out).toContain(`Z${'map'.padEnd(22)}\t1\t1.0000\n`);
    expect(out).toContain(`Z${'num_ret'.padEnd(22)}\t1\t-1000000.0000\n`);
    expect(out).toContain(`Z${'map'.padEnd(22)}\t2\t-1000000.0000\n`);
  });

  it('refuses a measure of another judgement format, and inconsistent preferences', () => {
    const prefs = { format: 'prefs' as const, prefs: parsePrefs('1 g s1 a 2\n1 g s1 b 1\n') };
    expect(() => trecEval(prefs, run, { measures: ['map'] })).toThrow(/needs qrels judgements/);
    const cycle = parsePrefs('1 g s1 a 2\n1 g s1 b 1\n1 g s2 b 2\n1 g s2 a 1\n');
    expect(() => trecEval({ format: 'prefs', prefs: cycle }, run, { measures: ['prefs_simp'] })).toThrow(
      /INVALID_INPUT|preferred to each other/,
    );
  });

  it('averages judgment-group measures over users (qrels_jg)', () => {
    const jg = parseQrelsJg('1 u1 a 1\n1 u1 c 0\n1 u2 a 0\n1 u2 c 1\n');
    const r = trecEval({ format: 'qrels_jg', qrelsJg: jg }, run, { measures: ['map_avgjg'] });
    expect(perQueryValues(r, 'map_avgjg').get('1')).toBeCloseTo((1 + 0.5) / 2, 12);
  });

  it('reads comments as trec_eval 10.0: # in column 1 of judgements, first field of runs; # inside ids kept', () => {
    const q = parseQrels('# comment\n1 0 CR#9 1\n');
    expect(q.topics.get('1')?.[0]?.docno).toBe('CR#9');
    expect(() => parseQrels('  # indented is data\n')).toThrow(/relevance is not an integer/);
    expect(parseRun('   # indented comment\n1 Q0 a 1 1 r\n').topics.size).toBe(1);
    expect(parseRun(fixture('results.trunc')).runId).toBe('STANDARD');
  });
});
