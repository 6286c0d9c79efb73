import { describe, expect, it } from 'vitest';
import { parseRequests } from '../../formats/index.js';
import { argueRunsTable } from './argue-runs-table.js';
import { argueRunRows, type ScoreRow } from './argue-tsv.js';
import { emptyCounts, type ReportCounts } from './count-report.js';
import { metaEvaluateRanking } from './meta-ranking.js';
import { formatNuggetizerMetrics, nuggetizerGlobal, nuggetizerScores } from './nuggetizer-scores.js';
import { argueIntervals, RunTable } from './score-summary.js';
import { formatValidationMessage, validateRun } from './validate-run.js';

const line = (
  topic: string,
  texts: string[],
  citations: unknown = ['d1'],
  extra: Record<string, unknown> = {},
) =>
  JSON.stringify({
    metadata: { team_id: 't', run_id: 'r', topic_id: topic },
    responses: texts.map((text) => ({ text, citations })),
    references: ['d1'],
    ...extra,
  });

describe('reports validate (rag-run-validator checks)', () => {
  const requests = parseRequests(
    ['{"request_id": "1", "limit": 10}', '{"request_id": "2"}', '{"request_id": "3"}'].join('\n'),
    'q',
  );

  it('reports format errors, lengths and missing topics as rag-run-validator prints them', () => {
    const text = [
      line('1', ['abcdef', 'ghijk']),
      '{"metadata": {"team_id": "t", "run_id": "r"}, "responses": [], "references": []}',
      line('2', ['x'], { d1: 'high' }),
    ].join('\n');
    const { messages, reports } = validateRun(text, 'run.jsonl', { requests });
    expect(reports).toBe(1);
    expect(messages.map(formatValidationMessage)).toEqual([
      '[Warning:1] Response in topic 1 is too long (characters) -- 12 > 10',
      "[Error:2] Format -- 'topic_id' is a required property",
      '[Error:3] Format -- {"d1":"high"} is not valid under any of the given schemas',
      "[Error] Missing topics: {'2', '3'}",
    ]);
    const strict = validateRun(line('1', ['abcdef', 'ghijk']), 'run.jsonl', {
      requests,
      strictOnLength: true,
      lengthMode: 'words',
    });
    expect(strict.messages.map(formatValidationMessage)).toContain("[Error] Missing topics: {'2', '3'}");
    expect(strict.messages.some((m) => m.text.includes('too long'))).toBe(false); // 2 words ≤ 10
  });

  it('adds duplicate topics, ids missing from references or the collection, and the RAGTIME rules', () => {
    const docs = {
      description: 'docs',
      get: (id: string) => (id === 'd1' ? { id, text: '', title: null } : null),
    };
    const text = [
      line('1', ['a'], { d1: 80 }),
      line('1', ['b'], { d1: 120, d7: 5 }),
      line('2', ['c'], ['d1']),
    ].join('\n');
    const { messages } = validateRun(text, 'run.jsonl', { docs, ragtime: true });
    expect(messages.map(formatValidationMessage)).toEqual([
      '[Error:2] Topic 1 of run r already appeared on line 1',
      '[Error:2] Topic 1 cites ids missing from "references": d7',
      '[Error:2] Topic 1 cites 1 id(s) not in the collection: d7',
      '[Error:2] Topic 1: citation confidences must be in 0-100 (found 120)',
      '[Error:3] Topic 2: RAGTIME citations are {doc_id: confidence} dictionaries',
    ]);
  });
});

describe("nuggetizer's scores (castorini/nuggetizer core/metrics.py)", () => {
  it('scores strict and partial support, vital and all, and writes calculate_metrics.py output', () => {
    const nug = (importance: string, assignment: string) => ({
      text: `${importance}-${assignment}`,
      importance,
      assignment,
    });
    const a = nuggetizerScores({
      qid: 'q1',
      nuggets: [
        nug('vital', 'support'),
        nug('vital', 'partial_support'),
        nug('vital', 'not_support'),
        nug('okay', 'support'),
        nug('okay', 'partial_support'),
      ],
    });
    expect(a).toEqual({
      qid: 'q1',
      strict_vital_score: 1 / 3,
      strict_all_score: 2 / 5,
      vital_score: 1.5 / 3,
      all_score: 3 / 5,
    });
    const b = nuggetizerScores({ qid: 2, nuggets: [nug('okay', 'support')] });
    expect(b).toMatchObject({ strict_vital_score: 0, vital_score: 0, all_score: 1 });
    expect(nuggetizerGlobal([a, b]).all_score).toBe(0.8);
    expect(formatNuggetizerMetrics([a, b]).split('\n')).toEqual([
      '{"qid": "q1", "strict_vital_score": 0.3333333333333333, "strict_all_score": 0.4, "vital_score": 0.5, "all_score": 0.6}',
      '{"qid": "2", "strict_vital_score": 0.0, "strict_all_score": 1.0, "vital_score": 0.0, "all_score": 1.0}',
      '{"qid": "all", "strict_vital_score": 0.16666666666666666, "strict_all_score": 0.7, "vital_score": 0.25, "all_score": 0.8}',
      '',
    ]);
  });
});

const counts = (swc: number, ccs: number, nuggets: number, correct: number): ReportCounts => ({
  ...emptyCounts(nuggets, nuggets),
  sentences: swc,
  characterCount: 100,
  sentencesWithCitationsOrRequiring: swc,
  correctlyCitedSentences: ccs,
  nuggets,
  nuggetsWeighted: nuggets,
  correctNuggets: correct,
  correctNuggetsWeighted: correct,
  citations: swc,
  relevantCitations: swc,
  supportingCitations: ccs,
});

/** A run whose nugget coverage per topic is `coverage[i] / 10`. */
const run = (runId: string, coverage: number[]): ScoreRow[] =>
  argueRunRows(
    runId,
    coverage.map((c, i) => ({ topicId: `t${i}`, counts: counts(4, 3, 10, c) })),
  );

describe('bootstrap intervals and paired comparison from scores', () => {
  it('micro and macro values with percentile CIs over topics, also from the per-topic rows alone', () => {
    const rows = run('r', [2, 4, 6, 8, 10]);
    const [, , , coverage] = argueIntervals(rows, 'r', { iterations: 500, seed: 1 });
    expect(coverage).toMatchObject({ metric: 'nugget_coverage', micro: 0.6, macro: 0.6, topics: 5 });
    expect(coverage!.macroCi[0]!).toBeLessThan(0.6);
    expect(coverage!.macroCi[1]!).toBeGreaterThan(0.6);
    const table = new RunTable(rows, 'r');
    expect(table.over('nugget_coverage_micro', ['t0', 't0', 't4'])).toBeCloseTo(14 / 30, 15);
    expect(table.over('f1_micro', table.topics)).toBe(
      rows.find((x) => x.requestId === 'all' && x.metric === 'f1_micro')!.value,
    );
    expect(() => argueIntervals(rows, 'nope')).toThrow(/no topic rows for run "nope"/);
  });

  it('compares A with B on common topics in the pairwise table, counting unpaired topics as unshared', () => {
    const a = { rows: run('A', [2, 4, 6, 8, 10]), runId: 'A' };
    const b = { rows: run('B', [3, 5, 7, 9, 10, 1]), runId: 'B' };
    const table = argueRunsTable(a, b, ['nugget_coverage'], { iterations: 1000, seed: 3 });
    expect(table).toMatchObject({ test: 'randomization', correction: 'holm', iterations: 1000, seed: 3 });
    const [row] = table.rows;
    expect(row).toMatchObject({ metric: 'nugget_coverage', a: 'A', b: 'B' });
    expect(row!.comparison).toMatchObject({ n: 5, onlyA: 0, onlyB: 1, wins: 0, ties: 1, losses: 4 });
    expect(row!.comparison.delta.estimate).toBeCloseTo(-0.08, 12);
    // 2^5 = 32 sign patterns ≤ 1000: exact.
    expect(row!.comparison.test.method).toBe('exact');
    // Both files with one run id: the two sides are told apart.
    const same = argueRunsTable(a, { rows: run('A', [1, 1, 1, 1, 1]), runId: 'A' }, ['nugget_coverage']);
    expect([same.rows[0]!.a, same.rows[0]!.b]).toEqual(['A (A)', 'A (B)']);
    expect(() => argueRunsTable(a, b, ['nope'])).toThrow(/Metric "nope" has no per-topic rows in A/);
  });
});

describe('meta-eval ranking', () => {
  /** Systems whose coverage is `scale[i]` / 10 on each of six topics. */
  const systems = (scale: number[]) => scale.flatMap((s, i) => run(`sys${i}`, [s, s, s, s, s, s]));

  it('ranks systems, correlates them with the reference with bootstrap CIs, and measures top-k stability', () => {
    const auto = systems([1, 3, 5, 7, 9]);
    const reference = systems([2, 3, 6, 5, 9]);
    const r = metaEvaluateRanking(auto, reference, {
      metric: 'nugget_coverage_macro',
      iterations: 200,
      seed: 5,
      topK: [2, 3],
    });
    expect(r.systems.map((s) => [s.system, s.autoRank, s.referenceRank])).toEqual([
      ['sys0', 5, 5],
      ['sys1', 4, 4],
      ['sys2', 3, 2],
      ['sys3', 2, 3],
      ['sys4', 1, 1],
    ]);
    expect(r.spearman.value).toBeCloseTo(0.9, 12);
    expect(r.kendallTauB.value).toBeCloseTo(0.8, 12);
    expect(r.topK).toEqual([
      { k: 2, overlap: 0.5, kendallTauB: 1 },
      { k: 3, overlap: 1, kendallTauB: expect.closeTo(1 / 3, 12) },
    ]);
    expect(r.topics).toBe(6);
  });

  it('warns when the judge shares a family with a system, and needs three shared systems', () => {
    const auto = systems([1, 3, 5]);
    const r = metaEvaluateRanking(auto, auto, {
      metric: 'f1_micro',
      iterations: 50,
      judge: 'openai:gpt-4.1-mini',
      systemModels: new Map([
        ['sys1', 'openai:gpt-4o'],
        ['sys2', 'anthropic:claude-sonnet-4'],
      ]),
    });
    expect(r.circularity).toHaveLength(1);
    expect(r.circularity[0]).toMatch(/both from the openai family/);
    expect(() => metaEvaluateRanking(auto, systems([1, 2]), { metric: 'f1_micro' })).toThrow(/Only 2 system/);
  });
});
