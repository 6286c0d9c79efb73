import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQrels, parseRun } from '../../formats/trec-files.js';
import { sharedDataPath } from '../../testing/index.js';
import { formatFixed4, formatTrecEval } from './format-trec-eval.js';
import { resolveMeasures } from './measure-params.js';
import { perQueryValues, trecEval } from './trec-eval.js';

/** trec_eval 10.0's test files, bundled. */
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '__fixtures__', 'trec-eval-10.0', name), 'utf8');
const SHARED_TREC = sharedDataPath('trec');
const MEASURES = ['recall.1,5,10,20,100', 'ndcg_cut.5,10,20', 'recip_rank', 'map', 'P.5,10'];

/** Parses trec_eval output lines into `measure qid → value`. */
function parseOutput(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of text.trim().split('\n')) {
    const [name, qid, value] = l.split('\t');
    out.set(`${name?.trim()} ${qid}`, value as string);
  }
  return out;
}

describe.skipIf(!existsSync(join(SHARED_TREC, 'trec_eval.binary.q.txt')))(
  'trecEval parity with trec_eval 10.0 (reference outputs in ../shared/data/trec; skipped when absent)',
  () => {
    it.each([
      ['binary', 'qrels.test', 'trec_eval.binary.q.txt', MEASURES],
      // The graded reference was produced without P and with ndcg added.
      ['graded', 'qrels.rel_level', 'trec_eval.graded.q.txt', [...MEASURES.slice(0, 4), 'ndcg']],
    ])(
      '%s qrels: every per-topic and all value within 5e-5 and byte-identical output',
      (_n, qrelsFile, refFile, measures) => {
        const qrels = parseQrels(fixture(qrelsFile), qrelsFile);
        const run = parseRun(fixture('results.test'), 'results.test');
        const result = trecEval(qrels, run, { measures });
        const ours = formatTrecEval(result, { perQuery: true });
        const reference = readFileSync(join(SHARED_TREC, refFile), 'utf8');
        const ref = parseOutput(reference);
        const mine = parseOutput(ours);
        expect([...mine.keys()].sort()).toEqual([...ref.keys()].sort());
        for (const [key, value] of ref)
          expect(Math.abs(Number(mine.get(key)) - Number(value)), key).toBeLessThan(5e-5);
        expect(ours).toBe(reference);
      },
    );
  },
);

describe('trec_eval semantics', () => {
  const qrels = parseQrels('1 0 a 1\n1 0 b 0\n1 0 c 2\n1 0 d -1\n2 0 x 1\n3 0 y 0\n');
  /** The runs below answer topic 1 only: score it alone (trec_eval 10.0 would stop at topic 2). */
  const skip = 'skip' as const;

  it('orders by score descending, ties by document id descending (rank column ignored)', () => {
    // Equal scores: "c" > "b" > "a" in byte order, so c is ranked first.
    const run = parseRun('1 Q0 a 1 1.0 r\n1 Q0 b 2 1.0 r\n1 Q0 c 3 1.0 r\n');
    const r = trecEval(qrels, run, { measures: ['recip_rank', 'P.1'], missingTopics: skip });
    expect(perQueryValues(r, 'recip_rank').get('1')).toBe(1);
    const run2 = parseRun('1 Q0 a 1 1.0 r\n1 Q0 b 2 1.0 r\n1 Q0 c 3 0.5 r\n');
    const r2 = trecEval(qrels, run2, { measures: ['recip_rank'], missingTopics: skip });
    expect(perQueryValues(r2, 'recip_rank').get('1')).toBe(0.5);
  });

  it('scores only qrels topics; run topics without qrels are ignored; -c averages over all qrels topics', () => {
    const run = parseRun('1 Q0 c 1 3 r\n9 Q0 z 1 3 r\n');
    // Without -c, judged topic 2 (not in the run) stops trec_eval 10.0 (see
    // trec-eval-release.test.ts); skipping it is asked for by name and scores topic 1 alone.
    expect(() => trecEval(qrels, run, { measures: ['map'] })).toThrow(/Topic "2" is in the judgements/);
    const skipped = trecEval(qrels, run, { measures: ['map'], missingTopics: 'skip' });
    expect([skipped.numQueries, skipped.unscoredTopics]).toEqual([1, ['2', '3']]);
    expect(skipped.summary.find((v) => v.name === 'map')?.value).toBeCloseTo(0.5, 10);
    const complete = trecEval(qrels, run, { measures: ['map', 'num_q', 'num_ret'], complete: true });
    expect(complete.numQueries).toBe(3);
    expect(complete.summary.map((v) => [v.name, v.value])).toEqual([
      ['num_q', 3],
      ['num_ret', 1],
      ['map', 0.5 / 3],
    ]);
  });

  it('-l sets the relevance threshold; nDCG gain is the grade', () => {
    const run = parseRun('1 Q0 a 1 3 r\n1 Q0 c 2 2 r\n');
    const l2 = trecEval(qrels, run, {
      measures: ['num_rel', 'recip_rank', 'ndcg_cut.2'],
      relevanceLevel: 2,
      missingTopics: skip,
    });
    expect(perQueryValues(l2, 'num_rel').get('1')).toBe(1);
    expect(perQueryValues(l2, 'recip_rank').get('1')).toBe(0.5);
    const ideal = 2 + 1 / Math.log2(3);
    const got = 1 + 2 / Math.log2(3);
    expect(perQueryValues(l2, 'ndcg_cut_2').get('1')).toBeCloseTo(got / ideal, 12);
  });

  it('treats negative grades as pooled-but-unjudged (not relevant, not counted)', () => {
    const run = parseRun('1 Q0 d 1 3 r\n1 Q0 a 2 2 r\n');
    const r = trecEval(qrels, run, { measures: ['num_rel', 'bpref', 'recip_rank'], missingTopics: skip });
    expect(perQueryValues(r, 'num_rel').get('1')).toBe(2);
    expect(perQueryValues(r, 'recip_rank').get('1')).toBe(0.5);
    expect(perQueryValues(r, 'bpref').get('1')).toBe(0.5);
  });

  it('refuses duplicate documents in a scored topic, as trec_eval does', () => {
    const run = parseRun('1 Q0 a 1 3 r\n1 Q0 a 2 2 r\n');
    expect(() => trecEval(qrels, run, { measures: ['map'] })).toThrow(/twice for topic "1"/);
    const ignored = parseRun('1 Q0 a 1 3 r\n7 Q0 q 1 3 r\n7 Q0 q 2 2 r\n');
    expect(trecEval(qrels, ignored, { measures: ['map'], missingTopics: 'skip' }).numQueries).toBe(1);
  });

  it('fails clearly when no topic overlaps', () => {
    const other = parseRun('8 Q0 a 1 1 r\n');
    expect(() => trecEval(qrels, other)).toThrow(/Topic "1" is in the judgements but has no results/);
    expect(() => trecEval(qrels, other, { missingTopics: skip })).toThrow(/No topic has both/);
  });

  it('prints the official set by default, with integer counts and the runid line', () => {
    const run = parseRun('1 Q0 c 1 3 myrun\n2 Q0 x 1 1 myrun\n');
    const out = formatTrecEval(trecEval(qrels, run, { missingTopics: 'skip' }));
    const names = out
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]?.trim());
    expect(names.slice(0, 8)).toEqual([
      'runid',
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'gm_map',
      'Rprec',
    ]);
    expect(out).toMatch(/^runid {17}\tall\tmyrun\nnum_q {17}\tall\t2\n/);
    expect(out).toMatch(/iprec_at_recall_0\.00 {2}\tall\t1\.0000\n/);
    expect(out).toMatch(/P_1000 {16}\tall\t0\.0010\n/);
  });
});

describe('parsers and measure arguments', () => {
  it.each([
    ['1 0 a', /qrels line 1: expected 4 fields/],
    ['1 0 a 1 extra', /expected 4 fields/],
    ['1 0 a x', /relevance is not an integer/],
  ])('qrels %j → %s', (text, error) => {
    expect(() => parseQrels(text, 'qrels')).toThrow(error);
  });

  it.each([
    ['1 Q0 a 1 0.5', /run line 1: expected 6 fields/],
    ['# comment\n1 Q0 a 1 abc r', /run line 2: score is not a decimal number/],
  ])('run %j → %s', (text, error) => {
    expect(() => parseRun(text, 'run')).toThrow(error);
  });

  it('ignores fields after run_id, blank and # lines (results.trunc)', () => {
    const run = parseRun(fixture('results.trunc'));
    expect(run.topics.get('303')?.length).toBe(84);
    expect(run.runId).toBe('STANDARD');
  });

  it.each([
    [['P.10,5'], ['P_5', 'P_10']],
    [
      ['ndcg_cut.10', 'map'],
      ['map', 'ndcg_cut_10'],
    ],
    [['success'], ['success_1', 'success_5', 'success_10']],
    [['ndcg.1=3,2=9'], ['ndcg_1=3,2=9']],
    [['P.5', 'P.10'], ['P_5']],
  ])('%j → %j', (args, names) => {
    expect(resolveMeasures(args).flatMap((m) => m.names)).toEqual(names);
  });

  it.each([['nope'], ['P.0'], ['P.5,5'], ['P.x'], ['P.']])('rejects %j', (arg) => {
    expect(() => resolveMeasures([arg])).toThrow(/Measure/);
  });

  it.each([
    [0.03125, '0.0312'],
    [0.09375, '0.0938'],
    [0.15625, '0.1562'],
    [1 / 3, '0.3333'],
    [0.66665, '0.6666'],
    [2, '2.0000'],
  ])('formats %d as C printf would (%s)', (x, s) => {
    expect(formatFixed4(x)).toBe(s);
  });
});
