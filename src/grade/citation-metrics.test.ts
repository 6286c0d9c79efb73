import { describe, expect, it } from 'vitest';
import type { DatasetRow, Verdict } from '../core/index.js';
import { verdictValue } from '../core/index.js';
import {
  type AnsweredRow,
  citationScores,
  type PaperQuotes,
  researchqaMatch,
  spanMatch,
} from './citation-metrics.js';

const T =
  'We train on 10k sentences. The model uses attention. Results improve by 3 points. Limitations remain.';
const paper: PaperQuotes = {
  passes: (q) => T.includes(q),
  locate: (q) => {
    const i = T.indexOf(q);
    return i < 0 ? null : { start: i, end: i + q.length };
  },
};
// Exact equality stands in for the difflib ratio here; ratio parity is tested with the real port.
const exact = researchqaMatch((a, b, t) => (a === b ? 1 : 0) >= t);
const g = (label: string, ...alternatives: string[]) => ({ section_label: label, alternatives });
type RowBits = Pick<DatasetRow, 'question_type' | 'expected_refusal' | 'expected_references'>;
const row = (
  refs: RowBits['expected_references'],
  type: RowBits['question_type'] = 'lookup',
  refusal: boolean | null = null,
): RowBits => ({
  question_type: type,
  expected_refusal: refusal,
  expected_references: refs,
});
const ans = (...quotes: string[]): AnsweredRow => ({
  contract: true,
  citations: quotes.map((q, i) => ({ key: String(i + 1), quote: q })),
});
const v = (x: Verdict<number>) => (x.status === 'scored' ? x.value : x.status);

const A = 'We train on 10k sentences.';
const B = 'The model uses attention.';
const C = 'Results improve by 3 points.';
const FAKE = 'We train on one million sentences.';

describe('citationScores (METHODS §2.4)', () => {
  it.each([
    // name, row, answer, [precision, coverage, accuracy, refusal]
    ['no groups, no quotes', row([]), ans(), [1, 1, 1, 'not-applicable']],
    ['no groups, with quotes', row([]), ans(A), [0, 1, 1, 'not-applicable']],
    ['groups, no quotes', row([g('M', A)]), ans(), [1, 0, 1, 'not-applicable']],
    ['one group matched', row([g('M', A, B)]), ans(B), [1, 1, 1, 'not-applicable']],
    [
      'multi-hop partial (AND across groups)',
      row([g('M', A), g('R', C)], 'multi_hop'),
      ans(A),
      [1, 0.5, 1, 'not-applicable'],
    ],
    ['two quotes, one fabricated', row([g('M', A)]), ans(A, FAKE), [0.5, 1, 0.5, 'not-applicable']],
    ['verbatim but off-evidence quote', row([g('M', A)]), ans(C), [0, 0, 1, 'not-applicable']],
    ['groups without alternatives dropped', row([g('M'), g('R', ' ')]), ans(A), [0, 1, 1, 'not-applicable']],
    [
      'OR within a group, one quote covers',
      row([g('M', A, B), g('R', C)]),
      ans(B, C),
      [1, 1, 1, 'not-applicable'],
    ],
    [
      'adversarial refusal, no quotes',
      row([], 'adversarial', true),
      ans(),
      ['not-applicable', 'not-applicable', 'not-applicable', 1],
    ],
    [
      'adversarial refusal absent=true, verbatim quotes',
      row([g('M', A)], 'adversarial', null),
      ans(A, B),
      ['not-applicable', 'not-applicable', 'not-applicable', 1],
    ],
    [
      'adversarial refusal, fabricated quote',
      row([], 'adversarial', true),
      ans(A, FAKE),
      ['not-applicable', 'not-applicable', 'not-applicable', 0],
    ],
    [
      'adversarial refuted (expected_refusal false) graded normally',
      row([g('M', A)], 'adversarial', false),
      ans(A),
      [1, 1, 1, 'not-applicable'],
    ],
  ])('%s', (_name, r, a, expected) => {
    const s = citationScores(r, a, paper, exact);
    expect([
      v(s.citation_precision),
      v(s.section_coverage),
      v(s.citation_accuracy),
      v(s.refusal_correctness),
    ]).toEqual(expected);
  });

  it('baseline runs (no contract) make every citation metric not applicable', () => {
    const s = citationScores(row([g('M', A)]), { contract: false, citations: [] }, paper, exact);
    expect(Object.values(s).map((x) => x.status)).toEqual(Array(4).fill('not-applicable'));
  });

  it('a failed answer fails every metric (never 0)', () => {
    const s = citationScores(row([g('M', A)]), { ...ans(A), error: 'timeout' }, paper, exact);
    expect(Object.values(s).map((x) => x.status)).toEqual(Array(4).fill('failed'));
    expect(verdictValue(s.citation_accuracy)).toBeNull();
  });

  it('without the paper text, accuracy fails but precision/coverage are still scored', () => {
    const s = citationScores(row([g('M', A)]), ans(A), null, exact);
    expect(s.citation_accuracy.status).toBe('failed');
    expect(v(s.citation_precision)).toBe(1);
  });

  it('span mode: overlapping located spans match; unlocatable quotes do not', () => {
    const sentence = 'The model uses attention.';
    const s = citationScores(row([g('M', sentence)]), ans('model uses attention', FAKE), paper, spanMatch);
    expect([v(s.citation_precision), v(s.section_coverage)]).toEqual([0.5, 1]);
    const noPaper = citationScores(row([g('M', sentence)]), ans('model'), null, spanMatch);
    expect(noPaper.citation_precision.status).toBe('failed');
  });
});
