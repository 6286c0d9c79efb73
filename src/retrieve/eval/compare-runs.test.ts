import { describe, expect, it } from 'vitest';
import { parseQrels, parseRun } from '../../formats/trec-files.js';
import { compareRuns, formatComparison } from './compare-runs.js';
import { docIdOfPassage, rollUpRun } from './roll-up.js';
import { trecEval } from './trec-eval.js';

const qrels = parseQrels('1 0 a 1\n1 0 b 1\n2 0 c 1\n3 0 d 1\n');

describe('compareRuns', () => {
  it('pairs every qrels topic (missing → 0), counts wins/ties/losses, paired t and randomization tests', () => {
    const runA = parseRun('1 Q0 a 1 2 A\n1 Q0 x 2 1 A\n2 Q0 c 1 1 A\n');
    const runB = parseRun('1 Q0 x 1 2 B\n1 Q0 a 2 1 B\n2 Q0 c 1 1 B\n3 Q0 d 1 1 B\n');
    const [row] = compareRuns(qrels, runA, runB, { measures: ['recip_rank'], iterations: 100, seed: 7 });
    expect(row).toMatchObject({ measure: 'recip_rank', n: 3, wins: 1, ties: 1, losses: 1 });
    expect(row?.meanA).toBeCloseTo((1 + 1 + 0) / 3, 12);
    expect(row?.meanB).toBeCloseTo((0.5 + 1 + 1) / 3, 12);
    expect(row?.diff).toBeCloseTo(0.5 / 3, 12);
    // B − A = [−0.5, 0, 1]: mean 1/6, sd √(7/12), t = (1/6) / (√(7/12)/√3).
    expect(row?.tTest.t).toBeCloseTo(1 / 6 / (Math.sqrt(7 / 12) / Math.sqrt(3)), 10);
    expect(row?.tTest.df).toBe(2);
    // 2^3 = 8 sign patterns ≤ 100 iterations, so exact; every pattern has |mean| ≥ 1/6, so p = 1.
    expect(row?.randomization).toMatchObject({ exact: true, seed: 7 });
    expect(row?.randomization.p).toBeCloseTo(1, 12);
    expect(formatComparison(row ? [row] : [], 'A', 'B')).toMatch(
      /recip_rank\s+3\s+0\.6667\s+0\.8333\s+\+0\.1667\s+1\/1\/1/,
    );
  });

  // Figures from scripts/compare-runs-reference.py (SciPy 1.17.1 permutation_test and ttest_rel).
  const ranksRun = (name: string, ranks: number[]) =>
    parseRun(
      ranks
        .map((r, i) =>
          r === 0
            ? `t${i} Q0 x${i} 1 1 ${name}\n`
            : Array.from(
                { length: r },
                (_, k) => `t${i} Q0 ${k === r - 1 ? `rel${i}` : `x${i}_${k}`} ${k + 1} ${10 - k} ${name}\n`,
              ).join(''),
        )
        .join(''),
    );
  const qrelsOf = (n: number) =>
    parseQrels(Array.from({ length: n }, (_, i) => `t${i} 0 rel${i} 1\n`).join(''));

  it("randomization p is SciPy permutation_test's (exact, 12 topics) and t is ttest_rel's", () => {
    const a = ranksRun('A', [1, 2, 0, 1, 3, 1, 2, 0, 1, 4, 1, 2]);
    const b = ranksRun('B', [1, 1, 2, 1, 1, 2, 1, 3, 1, 1, 1, 1]);
    const [row] = compareRuns(qrelsOf(12), a, b, { measures: ['recip_rank'] });
    expect(row?.diff).toBeCloseTo(0.2708333333333333, 14);
    expect(row?.randomization).toMatchObject({ exact: true, iterations: 4096, seed: 42 });
    expect(Math.abs(row!.randomization.p! - 0.0546875)).toBeLessThan(1e-12);
    expect(Math.abs(row!.tTest.t! - 2.550996785069104)).toBeLessThan(1e-12);
    expect(Math.abs(row!.tTest.p! - 0.02694721961478504)).toBeLessThan(1e-12);
    expect(row?.delta.percentile?.[0]).toBeLessThan(row!.diff);
  });

  it("a Monte Carlo randomization p (40 topics) is within 4 standard errors of SciPy's", () => {
    const a = ranksRun(
      'A',
      Array.from({ length: 40 }, (_, i) => (i * 7) % 5),
    );
    const b = ranksRun(
      'B',
      Array.from({ length: 40 }, (_, i) => (i * 3) % 4),
    );
    const [row] = compareRuns(qrelsOf(40), a, b, { measures: ['recip_rank'] });
    expect(row?.randomization.exact).toBe(false);
    // Since 2026-12-01 this p is 2·min(P(T ≤ t), P(T ≥ t)) with +1 on both counts, as SciPy's;
    // before, a second implementation gave (1 + #|T| ≥ |t|)/(1 + N) (the same p in expectation).
    const se = Math.sqrt((0.6162513837486162 * (1 - 0.6162513837486162)) / 10_000);
    expect(Math.abs(row!.randomization.p! - 0.6162513837486162)).toBeLessThan(4 * se + 1e-4);
  });

  it('skips integer count measures and refuses a request with nothing to compare', () => {
    const run = parseRun('1 Q0 a 1 2 A\n');
    expect(() => compareRuns(qrels, run, run, { measures: ['num_ret'] })).toThrow(/None of the requested/);
  });
});

describe('rollUpRun', () => {
  it.each([
    ['paper1#3', 'paper1'],
    ['a#b#0', 'a#b'],
    ['plain', 'plain'],
  ])('docIdOfPassage(%s) = %s', (id, doc) => {
    expect(docIdOfPassage(id)).toBe(doc);
  });

  it('keeps the max passage score per document so the run scores against paper qrels', () => {
    const run = parseRun('1 Q0 a#0 1 0.2 r\n1 Q0 x#1 2 0.9 r\n1 Q0 a#4 3 0.95 r\n1 Q0 x#0 4 0.1 r\n');
    const docs = rollUpRun(run);
    expect(docs.topics.get('1')).toEqual([
      { docno: 'a', sim: 0.95 },
      { docno: 'x', sim: 0.9 },
    ]);
    const r = trecEval(parseQrels('1 0 a 1\n'), docs, { measures: ['recip_rank'] });
    expect(r.summary[0]?.value).toBe(1);
  });
});
