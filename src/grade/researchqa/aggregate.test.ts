import { describe, expect, it } from 'vitest';
import { aggregateGrades, GradesSummary, spreads } from './aggregate.js';
import type { GradeRow } from './grade-row.js';

let nextRow = 0;
const g = (
  model: string,
  type: string,
  values: Partial<GradeRow>,
  extra: Partial<GradeRow> = {},
): GradeRow => {
  const status: GradeRow['status'] = {};
  for (const id of [
    'citation_precision',
    'section_coverage',
    'citation_accuracy',
    'citation_accuracy_strict',
    'refusal_correctness',
    'factual_accuracy',
    'completeness',
  ] as const) {
    status[id] = typeof values[id] === 'number' ? 'scored' : 'not-applicable';
  }
  return {
    row_id: `r${nextRow++}`,
    model,
    paper_id: 'p',
    question_type: type,
    domain: 'ml',
    citation_precision: null,
    section_coverage: null,
    citation_accuracy: null,
    citation_accuracy_strict: null,
    refusal_correctness: null,
    factual_accuracy: null,
    completeness: null,
    judge_justification: null,
    judge: null,
    judge_grounding: null,
    judge_repeats: null,
    status,
    errors: {},
    n_citations: 0,
    latency_seconds: 1,
    cost_usd: null,
    answer_failed: false,
    citation_rules: [],
    cached: false,
    label: null,
    run_row_sha256: null,
    ...values,
    ...extra,
  };
};

describe('aggregateGrades', () => {
  const rows = [
    g('A', 'lookup', { citation_accuracy: 1, citation_precision: 1 }),
    g('A', 'lookup', { citation_accuracy: 0.5, citation_precision: 0 }),
    g('A', 'adversarial', { refusal_correctness: 0 }),
    g(
      'A',
      'lookup',
      {},
      { answer_failed: true, status: { citation_accuracy: 'failed' }, latency_seconds: null },
    ),
    g('B', 'lookup', { citation_accuracy: 0.25, citation_precision: 1 }),
    g('B', 'adversarial', { refusal_correctness: 1 }, { domain: 'history' }),
  ];
  const summary = aggregateGrades(rows, { seed: 1, iterations: 500 });

  it('summarises per model with n, mean, median, CI, failures and not-applicable counts', () => {
    const a = summary[0]!;
    expect(a.model).toBe('A');
    expect(a.overall.rows).toBe(4);
    expect(a.overall.answerFailures).toBe(1);
    expect(a.overall.metrics.citation_accuracy).toMatchObject({
      n: 2,
      mean: 0.75,
      median: 0.75,
      failed: 1,
      notApplicable: 1,
    });
    // Resampled means of {1, 0.5} are 0.5, 0.75 or 1 (a quarter, a half, a quarter), so the 2.5%
    // and 97.5% quantiles are exactly the two ends.
    expect(a.overall.metrics.citation_accuracy.ci).toEqual([0.5, 1]);
    expect(a.overall.metrics.factual_accuracy).toMatchObject({ n: 0, mean: null, median: null, ci: null });
    expect(a.overall.latencySeconds).toEqual({ n: 3, mean: 1, median: 1 });
  });

  it('gives the percentile bootstrap interval of the mean, narrower than the range of the values', () => {
    // Five 1s and five 0s: a resample's mean is k/10 with k ~ Binomial(10, 1/2); P(k ≤ 1) = 1.1%
    // and P(k ≤ 2) = 5.5%, so the 2.5% quantile is 0.2 and, by symmetry, the 97.5% one 0.8.
    const tenRows = Array.from({ length: 10 }, (_, i) => g('C', 'lookup', { citation_accuracy: i % 2 }));
    const [c] = aggregateGrades(tenRows, { seed: 1, iterations: 10_000 });
    expect(c?.overall.metrics.citation_accuracy).toMatchObject({ n: 10, mean: 0.5, ci: [0.2, 0.8] });
  });

  it('slices by question type and domain', () => {
    expect(Object.keys(summary[0]!.byType)).toEqual(['lookup', 'adversarial']);
    expect(summary[0]!.byType.adversarial?.metrics.refusal_correctness.mean).toBe(0);
    expect(Object.keys(summary[1]!.byDomain)).toEqual(['ml', 'history']);
  });

  it('is deterministic for a seed', () => {
    expect(aggregateGrades(rows, { seed: 1, iterations: 500 })).toEqual(summary);
  });

  it('computes the best–worst spread per metric (null when no model has scores)', () => {
    const s = Object.fromEntries(spreads(summary).map((x) => [x.metric, x]));
    expect(s.citation_accuracy).toEqual({
      metric: 'citation_accuracy',
      best: { label: 'A', mean: 0.75 },
      worst: { label: 'B', mean: 0.25 },
      spread: 0.5,
    });
    expect(s.refusal_correctness?.spread).toBe(1);
    expect(s.completeness).toEqual({ metric: 'completeness', best: null, worst: null, spread: null });
  });

  it('has no spread with a single model (best and worst would be the same model)', () => {
    const one = spreads(summary.slice(0, 1));
    expect(one.find((x) => x.metric === 'citation_accuracy')?.spread).toBeNull();
  });
});

describe('aggregateGrades keys on the run label', () => {
  it('keeps two runs of one model apart by label, and counts cached rows', () => {
    const rows = [
      g('m', 'lookup', { citation_accuracy: 1 }, { label: 'm (k=3)', row_id: 'x' }),
      g('m', 'lookup', { citation_accuracy: 0 }, { label: 'm', row_id: 'x', cached: true }),
    ];
    const summary = aggregateGrades(rows, { iterations: 100 });
    expect(summary.map((m) => [m.label, m.model, m.overall.rows, m.overall.cachedRows])).toEqual([
      ['m (k=3)', 'm', 1, 0],
      ['m', 'm', 1, 1],
    ]);
  });

  it('refuses a row id twice within one run (it would be counted twice)', () => {
    const rows = [g('m', 'lookup', {}, { row_id: 'x' }), g('m', 'lookup', {}, { row_id: 'x' })];
    expect(() => aggregateGrades(rows)).toThrow(expect.objectContaining({ code: 'DUPLICATE_ROW_IDS' }));
  });
});

describe('GradesSummary', () => {
  it('given rows in any order with their positions, builds aggregateGrades of the rows in order', () => {
    const rows = Array.from({ length: 600 }, (_, i) =>
      g(
        i % 3 === 0 ? 'A' : 'B',
        i % 2 ? 'lookup' : 'multi_hop',
        { citation_precision: (i % 7) / 7, citation_accuracy: i % 5 === 0 ? 0 : 1 },
        {
          domain: i % 4 ? 'ml' : 'bio',
          citation_rules: [{ key: '1', rule: 'prefix', strict_rule: 'none', prefix_only: i % 2 === 0 }],
          latency_seconds: i % 10 === 0 ? null : i / 100,
          cost_usd: i % 3 ? 0.001 * i : null,
          answer_failed: i % 50 === 0,
          cached: i % 40 === 0,
        },
      ),
    );
    rows[5]!.status.citation_accuracy = 'failed';
    rows[5]!.citation_accuracy = null;
    const summary = new GradesSummary();
    const order = rows.map((_, i) => i).sort((a, b) => ((a * 7919) % 600) - ((b * 7919) % 600));
    for (const i of order) summary.put(rows[i]!, i);
    expect(summary.size).toBe(600);
    expect(summary.build({ seed: 3, iterations: 200 })).toEqual(
      aggregateGrades(rows, { seed: 3, iterations: 200 }),
    );
    const appended = new GradesSummary();
    for (const r of rows) appended.add(r);
    expect(appended.build({ seed: 3, iterations: 200 })).toEqual(
      aggregateGrades(rows, { seed: 3, iterations: 200 }),
    );
  });
});
