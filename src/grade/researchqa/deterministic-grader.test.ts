import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type DatasetRow, DatasetRowSchema, RunRowSchema } from '../../core/index.js';
import { sharedDataPath } from '../../testing/index.js';
import { preparePaper, sequenceRatioAtLeast } from '../../text/index.js';
import { alternativeMatcher, DeterministicGrader } from './deterministic-grader.js';

const reference = JSON.parse(
  readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8'),
) as {
  pairs: { a: string; b: string; ratio: number }[];
};

describe('researchqa alternative match = difflib ratio(alternative.lower(), quote.lower()) ≥ 0.5', () => {
  it('agrees with CPython on all 300 reference pairs (alternative = a, quote = b)', () => {
    const match = alternativeMatcher('researchqa');
    let agree = 0;
    for (const p of reference.pairs) {
      const expected = p.ratio >= 0.5;
      const [a, b] = [p.a.toLowerCase(), p.b.toLowerCase()];
      expect(sequenceRatioAtLeast(a, b, 0.5)).toBe(expected);
      if (match(p.b, p.a, null) === expected) agree++;
    }
    expect(agree).toBe(reference.pairs.length);
  });
});

const paperText = [
  '# A paper',
  '## Methods',
  'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.',
  '## Results',
  'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.',
].join('\n\n');
const row = (extra: Partial<DatasetRow>): DatasetRow =>
  DatasetRowSchema.parse({
    row_id: 'p_chunk0_lookup',
    paper_id: 'p',
    domain: 'education',
    question_type: 'lookup',
    question: 'q',
    ...extra,
  });

describe('DeterministicGrader', () => {
  const refs = [
    {
      section_label: 'Methods',
      alternatives: [
        'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.',
      ],
    },
    {
      section_label: 'Results',
      alternatives: [
        'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.',
      ],
    },
  ];
  let prepared = 0;
  const grader = new DeterministicGrader(
    (id) => {
      prepared++;
      return id === 'p' ? preparePaper(paperText) : null;
    },
    { match: 'researchqa' },
  );

  it.each([
    ['both sections cited verbatim', [refs[0]!.alternatives[0]!, refs[1]!.alternatives[0]!], [1, 1, 1]],
    [
      'a shorter verbatim quote of one section',
      ['We collected 1,204 survey responses from teachers in three districts'],
      [1, 0.5, 1],
    ],
    ['fabricated quote', ['We collected 9,999 responses from principals in ten districts.'], [null, null, 0]],
  ])('%s', (_name, quotes, [precision, coverage, accuracy]) => {
    const run = RunRowSchema.parse({
      row_id: 'p_chunk0_lookup',
      model: 'm',
      citations: quotes.map((q, i) => ({ key: String(i + 1), quote: q })),
      latency_ms: 1500,
    });
    const g = grader.grade(row({ question_type: 'multi_hop', expected_references: refs }), run);
    if (precision !== null) expect(g.citation_precision).toBe(precision);
    if (coverage !== null) expect(g.section_coverage).toBe(coverage);
    expect(g.citation_accuracy).toBe(accuracy);
    expect(g.refusal_correctness).toBeNull();
    expect(g.status.refusal_correctness).toBe('not-applicable');
    expect(g.latency_seconds).toBe(1.5);
  });

  it('prepares each paper once and fails (not 0) metrics that need a missing paper', () => {
    const before = prepared;
    const run = RunRowSchema.parse({
      row_id: 'x',
      model: 'm',
      citations: [{ key: '1', quote: 'anything at all here' }],
    });
    const g1 = grader.grade(row({ paper_id: 'missing' }), run);
    grader.grade(row({ paper_id: 'missing' }), run);
    expect(prepared - before).toBe(1);
    expect(g1.citation_accuracy).toBeNull();
    expect(g1.status.citation_accuracy).toBe('failed');
    expect(g1.errors.citation_accuracy).toMatch(/paper text is not available/);
  });
});

describe('citation_accuracy_strict: the strict quote matcher (exact, no-space, gapped)', () => {
  // A PDF's text: a running header between two lines and a citation marker inside sentences.
  const pdfText = [
    'Teachers who received coaching reported a large increase in',
    'Journal of Education Research 12 (2021) 45–67',
    'self-efficacy compared with controls [12], and the effect lasted a full year after the',
    'programme ended. We also found that principals rated coached teachers higher than',
    'uncoached ones in every district we studied.',
  ].join('\n');
  const grader = new DeterministicGrader(() => preparePaper(pdfText), { match: 'researchqa' });
  const grade = (quotes: string[]) =>
    grader.grade(
      row({ expected_references: [{ section_label: 'R', alternatives: ['unrelated text'] }] }),
      RunRowSchema.parse({
        row_id: 'p_chunk0_lookup',
        model: 'm',
        citations: quotes.map((quote, i) => ({ key: String(i + 1), quote })),
      }),
    );

  it('accepts a quote interrupted in the paper by a running header or a citation marker', () => {
    const g = grade([
      // Interrupted by the running header: no researchqa rule finds it, gapped does.
      'reported a large increase in self-efficacy compared with controls',
      // Verbatim across a line break: both find it.
      'the effect lasted a full year after the programme ended. We also found that principals rated coached teachers higher',
    ]);
    expect(g.citation_rules.map((r) => [r.rule, r.strict_rule, r.prefix_only])).toEqual([
      ['none', 'gapped', false],
      ['exact', 'exact', false],
    ]);
    expect([g.citation_accuracy, g.citation_accuracy_strict]).toEqual([0.5, 1]);
  });

  it('rejects a quote that only a prefix rule accepts, and one with a changed word', () => {
    const g = grade([
      'self-efficacy compared with controls [12], and the effect lasted a full year after the programme ended, then faded away',
      'reported a large increase in self-efficacy compared with parents',
    ]);
    expect(g.citation_rules.map((r) => [r.rule, r.strict_rule, r.prefix_only])).toEqual([
      ['prefix', 'none', true],
      ['none', 'none', false],
    ]);
    expect([g.citation_accuracy, g.citation_accuracy_strict]).toEqual([0.5, 0]);
  });
});
