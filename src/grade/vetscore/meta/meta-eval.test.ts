import { describe, expect, it } from 'vitest';
import { krippendorffAlpha, spearman } from '../../../stats/index.js';
import { gradeFrom } from '../__fixtures__/grades.js';
import type { Annotation } from './annotations.js';
import { meanHarm } from './harm-aggregate.js';
import { metaEvaluateFaithfulness, weightedSupport } from './meta-eval.js';

const ann = (
  answer: string,
  segment: number,
  claim: number,
  annotator: string,
  verified: 0 | 1 | null,
  harm: Annotation['harm'],
): Annotation => ({
  line: 0,
  answer,
  segment,
  claim,
  annotator,
  verified,
  harm,
});

// Judge: answer a, three segments.
const judgeRun = [
  gradeFrom('a', [
    [
      [1, 2],
      [1, 1],
    ],
    [[0, 5]],
    [
      [1, 3],
      [0, 4],
    ],
  ]),
];
// Two annotators on every judge claim, plus one claim the judge does not have.
const humans: Annotation[] = [
  ann('a', 0, 0, 'h1', 1, 2),
  ann('a', 0, 1, 'h1', 1, 1),
  ann('a', 1, 0, 'h1', 0, 5),
  ann('a', 2, 0, 'h1', 1, 3),
  ann('a', 2, 1, 'h1', 1, 4),
  ann('a', 0, 0, 'h2', 1, 3),
  ann('a', 0, 1, 'h2', 1, 1),
  ann('a', 1, 0, 'h2', 0, 4),
  ann('a', 2, 0, 'h2', 1, 3),
  ann('a', 2, 1, 'h2', 0, 4),
  ann('a', 9, 0, 'h2', 1, 1),
];

describe('metaEvaluateFaithfulness', () => {
  const report = metaEvaluateFaithfulness([judgeRun], humans, { p: 1, iterations: 200, harm: meanHarm });

  it('aligns by (answer, segment, claim) and reports the mismatches', () => {
    expect(report.alignment).toMatchObject({
      annotators: ['h1', 'h2'],
      matched_claims: 5,
      matched_segments: 3,
      human_only: 1,
      auto_only: 0,
    });
    expect(report.alignment.human_only_examples).toEqual([{ answer: 'a', segment: 9, claim: 0 }]);
  });

  it('correlates judge and human segment figures (Spearman, by hand)', () => {
    // judge: verification [1, 0, 0.5], harm [1.5, 5, 3.5]
    // humans: verification [1, 0, 0.75], harm [(2.5+1)/2, 4.5, (3+4)/2] = [1.75, 4.5, 3.5]
    expect(report.segment_spearman.verification.spearman).toBeCloseTo(
      spearman([1, 0, 0.5], [1, 0, 0.75]) ?? Number.NaN,
      12,
    );
    expect(report.segment_spearman.harm.spearman).toBeCloseTo(1, 12);
    const judgeCombined = [
      1,
      0,
      weightedSupport(
        [
          { v: 1, w: 3 },
          { v: 0, w: 4 },
        ],
        1,
      )!,
    ];
    const humanCombined = [
      1,
      0,
      weightedSupport(
        [
          { v: 1, w: 3 },
          { v: 0.5, w: 4 },
        ],
        1,
      )!,
    ];
    expect(judgeCombined[2]).toBeCloseTo(3 / 7, 12);
    expect(report.segment_spearman.combined.spearman).toBeCloseTo(
      spearman(judgeCombined, humanCombined) ?? Number.NaN,
      12,
    );
    expect(report.segment_spearman.combined.n).toBe(3);
  });

  it("computes Krippendorff's α among annotators and with the judge as a rater", () => {
    const h1 = [1, 1, 0, 1, 1, null];
    const h2 = [1, 1, 0, 1, 0, 1];
    const j = [1, 1, 0, 1, 0, null];
    expect(report.alpha.verification_nominal.humans).toBeCloseTo(
      krippendorffAlpha([h1, h2], 'nominal') ?? Number.NaN,
      12,
    );
    expect(report.alpha.verification_nominal.humans_and_judge).toBeCloseTo(
      krippendorffAlpha([h1, h2, j], 'nominal') ?? Number.NaN,
      12,
    );
    const w1 = [2, 1, 5, 3, 4, null];
    const w2 = [3, 1, 4, 3, 4, 1];
    expect(report.alpha.harm_ordinal.humans).toBeCloseTo(
      krippendorffAlpha([w1, w2], 'ordinal') ?? Number.NaN,
      12,
    );
    expect(report.alpha.harm_interval.humans).toBeCloseTo(
      krippendorffAlpha([w1, w2], 'interval') ?? Number.NaN,
      12,
    );
  });

  it('measures run-to-run consistency across --auto runs', () => {
    const second = gradeFrom('a', [
      [
        [1, 2],
        [0, 1],
      ],
      [[0, 5]],
      [[1, 3], null],
    ]);
    const r = metaEvaluateFaithfulness([judgeRun, [second]], humans, {
      p: 1,
      iterations: 100,
    });
    expect(r.consistency.runs).toBe(2);
    expect(r.consistency.pairs[0]).toMatchObject({
      runs: [0, 1],
      claims: 4,
      verdict_identical: 0.75,
      harm_identical: 1,
    });
  });

  it('aggregates human harm with the partial credit model by default', () => {
    const r = metaEvaluateFaithfulness([judgeRun], humans, { p: 1, iterations: 50 });
    expect(r.human_harm.method).toMatch(/partial credit model|did not converge/);
    expect(r.human_harm.details).toMatchObject({ ratings: 11 });
  });

  it('reports the repeats inside a run, pooled over answers', () => {
    const g = gradeFrom('a', [[[1, 2]]]);
    g.repeats = 3;
    g.agreement = {
      verification: { claims: 1, identical: 1, meanPairwise: 1 },
      harm: { claims: 1, identical: 0, meanPairwise: 1 / 3 },
    };
    const r = metaEvaluateFaithfulness([[g]], [], { iterations: 10 });
    expect(r.consistency.repeats).toEqual([
      {
        run: 0,
        k: 3,
        verification: { claims: 1, identical: 1, meanPairwise: 1 },
        harm: { claims: 1, identical: 0, meanPairwise: 1 / 3 },
      },
    ]);
  });

  it('gives n/a figures, not errors, without annotations', () => {
    const r = metaEvaluateFaithfulness([judgeRun], []);
    expect(r.segment_spearman.verification).toEqual({ n: 0, spearman: null, lower: null, upper: null });
    expect(r.alpha.verification_nominal).toEqual({ humans: null, humans_and_judge: null });
  });
});
