import { describe, expect, it } from 'vitest';
import type { DatasetRow, Verdict } from '../../core/index.js';
import { verdictValue } from '../../core/index.js';
import {
  type AnsweredRow,
  type CitationScores,
  citationScores,
  type PaperQuotes,
  researchqaMatch,
  spanMatch,
} from './citation-metrics.js';

const T =
  'We train on 10k sentences. The model uses attention. Results improve by 3 points. Limitations remain.';
// A quote found whole is `exact`; one whose first 12 characters are found (a stand-in for the
// 80-character prefix rule) is `prefix`, which the strict matcher rejects.
const paper: PaperQuotes = {
  check: (q) =>
    T.includes(q)
      ? { rule: 'exact', strictRule: 'exact' }
      : q.length >= 12 && T.includes(q.slice(0, 12))
        ? { rule: 'prefix', strictRule: 'none' }
        : { rule: 'none', strictRule: 'none' },
  locate: (q) => {
    const i = T.indexOf(q);
    return i < 0 ? null : { start: i, end: i + q.length };
  },
};
// Exact equality stands in for the difflib ratio here; ratio parity is tested with the real port.
const exact = researchqaMatch((a, b, t) => (a === b ? 1 : 0) >= t);
const g = (label: string, ...alternatives: string[]) => ({ section_label: label, alternatives });
type RowBits = Pick<DatasetRow, 'question_type' | 'expected_refusal' | 'expected_references'> & {
  evidence_layout?: 'flat';
};
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
const metricStatuses = ({ citation_rules: _, ...metrics }: CitationScores) =>
  Object.values(metrics).map((x) => x.status);

const A = 'We train on 10k sentences.';
const B = 'The model uses attention.';
const C = 'Results improve by 3 points.';
const FAKE = 'We trained on one million sentences.';
const ALIEN = 'Nothing like this is in the paper.';

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
    // The published _evidence_groups drops only groups whose list is empty; a blank alternative
    // stays (and matches nothing), so the group counts against coverage.
    ['groups without alternatives dropped', row([g('M'), g('R', ' ')]), ans(A), [0, 0, 1, 'not-applicable']],
    ['only empty groups', row([g('M'), g('R')]), ans(A), [0, 1, 1, 'not-applicable']],
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
      'adversarial refusal, verbatim quotes',
      row([g('M', A)], 'adversarial', true),
      ans(A, B),
      ['not-applicable', 'not-applicable', 'not-applicable', 1],
    ],
    [
      // The published harness copies expected_refusal (None) into every results row, so
      // .get("expected_refusal", True) is falsy and the row is graded like any other.
      'adversarial without expected_refusal graded normally',
      row([g('M', A)], 'adversarial', null),
      ans(A, B),
      [0.5, 1, 1, 'not-applicable'],
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
    expect(metricStatuses(s)).toEqual(Array(5).fill('not-applicable'));
  });

  it('a failed answer fails every metric (never 0)', () => {
    const s = citationScores(row([g('M', A)]), { ...ans(A), error: 'timeout' }, paper, exact);
    expect(metricStatuses(s)).toEqual(Array(5).fill('failed'));
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

  it('reports strict accuracy beside the published one and marks prefix-only citations', () => {
    const changedTail = 'We train on 90k sentences.'; // its first 12 characters are verbatim
    const s = citationScores(row([g('M', A)]), ans(A, changedTail, ALIEN), paper, exact);
    expect([v(s.citation_accuracy), v(s.citation_accuracy_strict)]).toEqual([2 / 3, 1 / 3]);
    expect(s.citation_rules).toEqual([
      { key: '1', rule: 'exact', strict_rule: 'exact', prefix_only: false },
      { key: '2', rule: 'prefix', strict_rule: 'none', prefix_only: true },
      { key: '3', rule: 'none', strict_rule: 'none', prefix_only: false },
    ]);
  });

  it('rounds per row to 3 decimals as Python round() when asked (researchqa mode)', () => {
    const quotes = [A, ...Array.from({ length: 15 }, (_, i) => `unrelated quote ${i}`)];
    const unrounded = citationScores(row([g('M', A)]), ans(...quotes), paper, exact);
    const rounded = citationScores(row([g('M', A)]), ans(...quotes), paper, exact, { round: true });
    expect(v(unrounded.citation_precision)).toBe(0.0625);
    // 1/16 is an exact binary tie at 3 decimals: Python rounds it to even.
    expect([v(rounded.citation_precision), v(rounded.citation_accuracy)]).toEqual([0.062, 0.062]);
    const third = citationScores(row([g('M', A)]), ans(A, ALIEN, ALIEN), paper, exact, { round: true });
    expect(v(third.citation_precision)).toBe(0.333);
  });

  it('researchqa matching puts the alternative first: ratio(alternative, quote), autojunk on the quote', () => {
    const seen: [string, string][] = [];
    const spy = researchqaMatch((a, b) => {
      seen.push([a, b]);
      return false;
    });
    spy('The Quote', 'An Alternative', null);
    expect(seen).toEqual([['an alternative', 'the quote']]);
    // CPython: SequenceMatcher(None, alternative, quote).ratio() is 0.0176 for this pair (the quote
    // has 237 characters, so autojunk drops its frequent characters), 0.576 the other way round.
    const alternative =
      'we report the mean and standard deviation over five random seeds for every model and dataset in table 3';
    const quote =
      'table 3 reports the mean and standard deviation over five random seeds for every model and dataset; the differences between the three strongest systems are smaller than one standard deviation in most settings, so we do not claim a winner';
    expect(researchqaMatch()(quote, alternative, null)).toBe(false);
    expect(researchqaMatch()(alternative, quote, null)).toBe(true);
  });
});

describe('citationScores on the earlier flat-list layout (graded as that version did)', () => {
  const flat = (
    quotes: string[],
    type: RowBits['question_type'] = 'lookup',
    refusal: boolean | null = null,
  ) => ({
    ...row(
      quotes.map((q) => g('', q)),
      type,
      refusal,
    ),
    evidence_layout: 'flat' as const,
  });
  it.each([
    // name, row, answer, [precision, coverage (citation_recall), accuracy, refusal]
    ['nothing expected, nothing cited', flat([]), ans(), [1, 1, 1, 'not-applicable']],
    ['recall over expected quotes', flat([A, B, C]), ans(A), [1, 1 / 3, 1, 'not-applicable']],
    ['adversarial, nothing cited', flat([], 'adversarial', true), ans(), [1, 1, 1, 1]],
    ['adversarial, cited with nothing expected', flat([], 'adversarial', true), ans(A), [0, 1, 1, 0]],
    ['adversarial, cites an expected quote', flat([A], 'adversarial', true), ans(A), [1, 1, 1, 1]],
    ['adversarial, cites something else', flat([A], 'adversarial', true), ans(A, C), [0.5, 1, 1, 0]],
  ])('%s', (_name, r, a, expected) => {
    const s = citationScores(r, a, paper, exact);
    expect([
      v(s.citation_precision),
      v(s.section_coverage),
      v(s.citation_accuracy),
      v(s.refusal_correctness),
    ]).toEqual(expected);
  });

  it('tests refusal with the citation as difflib a (fuzzy_match(act, exp)), unlike precision', () => {
    const seen: [string, string][] = [];
    const spy = researchqaMatch((a, b) => {
      seen.push([a, b]);
      return a === b;
    });
    citationScores(flat(['expected'], 'adversarial', true), ans('cited'), paper, spy);
    expect(seen).toContainEqual(['expected', 'cited']); // precision / recall: alternative first
    expect(seen).toContainEqual(['cited', 'expected']); // refusal: citation first
  });
});
