import { describe, expect, it } from 'vitest';
import { type Document, type RunRow, RunRowSchema } from '../core/index.js';
import { RESEARCHQA_METRICS } from '../grade/index.js';
import { parseJsonl } from '../io/index.js';
import { joinAnswers } from './answer-join.js';
import { buildReportData } from './build-report.js';
import { vetAnswer } from './faithfulness-section.js';
import { argueReport, bankNuggets } from './judgments-section.js';
import { looseGradeRow } from './loose-grade-row.js';
import { splitRecords } from './loose-records.js';
import { contextWindows } from './paper-excerpts.js';
import { costStats, histogram } from './run-stats.js';

const grade = (v: Record<string, unknown>) => {
  const g = looseGradeRow(v);
  if (typeof g === 'string') throw new Error(g);
  return g;
};
const run = (row_id: string, model: string, answer = 'a', citations: RunRow['citations'] = []): RunRow =>
  RunRowSchema.parse({ row_id, model, answer, citations, latency_ms: 1000 });

describe('loose readers', () => {
  it('split a manifest off the first record and skip what is not a row', () => {
    const text = [
      JSON.stringify({
        citegeist_manifest: 1,
        kind: 'grades',
        label: 'gpt k=3',
        tool: { version: '0.2.0' },
        settings: { match: 'span' },
      }),
      '{"row_id":"a","model":"m"}',
      'not json',
      '[1,2]',
      JSON.stringify({ citegeist_manifest: 1, label: 'again' }),
    ].join('\n');
    const split = splitRecords(parseJsonl(text));
    expect(split.manifest).toMatchObject({ label: 'gpt k=3', version: '0.2.0', settings: { match: 'span' } });
    expect(split.rows.map((r) => r.line)).toEqual([2]);
    expect(split.skipped.map((s) => s.line)).toEqual([3, 4, 5]);
  });

  it('read a grades row with only an id and a model, inferring statuses from values', () => {
    const g = grade({ row_id: 'a', model: 'm', citation_accuracy: 0.5 });
    expect(g.row.status.citation_accuracy).toBe('scored');
    expect(g.row.status.section_coverage).toBe('not-applicable');
    expect(g.row.citation_rules).toEqual([]);
    expect([g.label, g.cached, g.grounding]).toEqual([null, false, null]);
    expect(looseGradeRow({ model: 'm' })).toMatch(/row_id/);
    expect(looseGradeRow({ row_id: 'a' })).toMatch(/model/);
  });

  it('read the fields newer graders add: label, cached, judge grounding', () => {
    const g = grade({
      row_id: 'a',
      model: 'm',
      label: 'm (k=3)',
      cached: true,
      status: { factual_accuracy: 'failed' },
      judge_grounding: {
        judge_factual_accuracy: 5,
        evidence: [
          { claim: 'c', expected_quote: 'q', status: 'unverified', reason: 'quote-not-in-expected-answer' },
        ],
      },
    });
    expect([g.label, g.cached, g.judgeFactual, g.row.status.factual_accuracy]).toEqual([
      'm (k=3)',
      true,
      5,
      'failed',
    ]);
    expect(g.grounding).toEqual([
      { claim: 'c', quote: 'q', status: 'unverified: quote-not-in-expected-answer' },
    ]);
  });
});

describe('joinAnswers', () => {
  it('keys runs by label (manifest or row) and falls back to the model for older files', () => {
    const labelled = {
      name: 'g1',
      manifest: { label: 'A', kind: 'grades', settings: null, version: null, createdAt: null },
      rows: [grade({ row_id: 'q1', model: 'm' })],
    };
    const old = {
      name: 'g2',
      manifest: null,
      rows: [grade({ row_id: 'q1', model: 'n' }), grade({ row_id: 'q1', model: 'n' })],
    };
    const runs = [
      {
        name: 'r1',
        manifest: { label: 'A', kind: 'run', settings: null, version: null, createdAt: null },
        rows: [run('q1', 'm', 'from A')],
      },
      { name: 'r2', manifest: null, rows: [run('q1', 'n', 'from n'), run('q2', 'n', 'ungraded')] },
    ];
    const { answers, repeated } = joinAnswers([labelled, old], runs);
    expect(answers.map((a) => [a.label, a.rowId, a.run?.answer, a.grade !== null])).toEqual([
      ['A', 'q1', 'from A', true],
      ['n', 'q1', 'from n', true],
      ['n', 'q2', 'ungraded', false],
    ]);
    expect(repeated).toBe(1);
  });
});

describe('run figures', () => {
  it.each([
    [[0, 0.05, 0.1, 0.99, 1], [0, 1] as [number, number], [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]],
    [[1, 3, 3, 5], [1, 5] as [number, number], [1, 0, 2, 0, 1]],
  ])('histogram of %j over %j', (values, range, counts) => {
    expect(histogram(values, range)).toEqual(counts);
  });

  it('leaves cache hits out of latency, cost and tokens, and counts them apart', () => {
    const c = costStats([
      { cached: false, failed: false, latencySeconds: 1, costUsd: 0.01, tokens: { input: 10, output: 5 } },
      { cached: false, failed: true, latencySeconds: 3, costUsd: 0.03, tokens: null },
      { cached: true, failed: false, latencySeconds: 0.001, costUsd: 0, tokens: { input: 10, output: 5 } },
    ]);
    expect(c).toEqual({
      answered: 2,
      cached: 1,
      latency: { n: 2, median: 2, mean: 2, p90: 2.8 },
      usd: 0.04,
      usdPerAnswer: 0.02,
      tokens: { input: 10, output: 5 },
    });
  });
});

describe('paper excerpts', () => {
  it('keeps whole paragraphs around marks, and joins close windows', () => {
    const text = `${'a'.repeat(100)}\n${'b'.repeat(100)}\n${'c'.repeat(1000)}\n${'d'.repeat(100)}`;
    const para = (start: number, end: number) => ({
      id: String(start),
      start,
      end,
      sectionId: null,
      page: null,
      kind: 'body' as const,
    });
    const doc = { text, paragraphs: [para(0, 100), para(101, 201), para(202, 1202), para(1203, 1303)] };
    expect(
      contextWindows(doc, [
        [10, 20, 'c'],
        [150, 160, 'g'],
        [1250, 1260, 'c'],
      ]),
    ).toEqual([
      [0, 201],
      [1203, 1303],
    ]);
  });
});

describe('VETSCORE answers', () => {
  it('gives each scored claim its weight harm^p and share of the answer, and none to a failed claim', () => {
    const v = vetAnswer(
      {
        id: 'a',
        p: 2,
        status: 'scored',
        score: 0.8,
        segments: [
          {
            text: 's',
            keys: ['1'],
            status: 'scored',
            claims: [
              {
                text: 'x',
                status: 'scored',
                v: 1,
                w: 1,
                verdict: 'supported',
                span: { key: '1', start: 0, end: 1, text: 'e', rule: 'exact' },
              },
              {
                text: 'y',
                status: 'scored',
                v: 0,
                w: 2,
                verdict: 'unverified',
                nearest: { text: 'n', similarity: 0.4 },
              },
              { text: 'z', status: 'failed', v: null, w: null, failure: 'judge broke' },
            ],
          },
        ],
      },
      'run',
      null,
    );
    const claims = v.segments[0]!.claims;
    expect(claims.map((c) => [c.weight, c.share])).toEqual([
      [1, 0.2],
      [4, 0.8],
      [null, null],
    ]);
    expect(claims[0]!.span).toEqual({ key: '1', text: 'e', rule: 'exact' });
    expect(claims[1]!.nearest).toEqual({ text: 'n', similarity: 0.4 });
  });
});

describe('ARGUE reports', () => {
  const bank = bankNuggets({
    query_id: 'T',
    title_query: 't',
    nugget_bank: {
      or: { question: 'or', answers: { a: {}, b: {} }, aggregator_type: 'OR' },
      and: { question: 'and', answers: { a: {}, b: {} }, aggregator_type: 'AND' },
      none: { question: 'none', answers: { a: {} } },
    },
  })!;
  const sentence = (matched: { question_text: string; matched_answer: string[] }[], failed = 0) => ({
    text: 's',
    citations: [{ doc_id: 'd' }],
    judgments: [
      {
        judgment_type_id: 'SENTENCE_ATTESTED',
        response: { is_attested: true, evidence_quote: 'q' },
        provenance: { doc_id: 'd' },
      },
      {
        judgment_type_id: 'SENTENCE_ANSWERS_QUESTION',
        response: { matched_nuggets: matched },
        provenance: { doc_id: 'd' },
      },
    ],
    failed_judgments: Array.from({ length: failed }, () => ({
      judgment_type_id: 'CITED_DOCUMENT_RELEVANCE',
      reason: 'timeout',
    })),
  });

  it('pools answers over the report: OR met by any answer, AND only by all, unknown nuggets never', () => {
    const r = argueReport(
      {
        report: { metadata: { topic_id: 'T', run_id: 'R' } },
        judgments: [
          sentence([
            { question_text: 'or', matched_answer: ['zzz'] },
            { question_text: 'and', matched_answer: ['a'] },
          ]),
          sentence(
            [
              { question_text: 'and', matched_answer: ['b'] },
              { question_text: 'elsewhere', matched_answer: ['x'] },
            ],
            2,
          ),
        ],
      },
      bank,
    );
    expect(r.nuggets.map((n) => [n.question, n.satisfied, n.unknown, n.by.map((b) => b.s)])).toEqual([
      ['or', true, false, [0]],
      ['and', true, false, [0, 1]],
      ['none', false, false, []],
      ['elsewhere', false, true, [1]],
    ]);
    expect([r.topic, r.run, r.failed]).toEqual(['T', 'R', 2]);
    expect(r.sentences[0]!.citations[0]).toMatchObject({
      doc: 'd',
      attested: true,
      evidence: 'q',
      relevant: null,
    });
  });
});

describe('buildReportData', () => {
  const doc: Document = {
    id: 'p',
    title: 'P',
    source: 'text',
    language: 'en',
    meta: {},
    text: 'Alpha beta gamma delta epsilon zeta eta theta iota kappa.\n\nThe second paragraph is here with its own words.',
    pages: [],
    sections: [],
    paragraphs: [],
    furniture: [],
    markers: [],
  };
  const dataset = [
    {
      row_id: 'q',
      paper_id: 'p',
      domain: 'd',
      question_type: 'lookup' as const,
      question: 'Q?',
      expected_answer: 'E',
      expected_references: [
        { section_label: 'S', alternatives: ['The second paragraph is here with its own words.'] },
      ],
      judge_rubric: null,
      required_sections: [],
      reasoning_chain: null,
      false_premise: null,
      expected_refusal: null,
      metadata: {},
    },
  ];
  const citations = [
    { key: '1', quote: 'Alpha beta gamma delta epsilon zeta eta theta iota kappa.' },
    { key: '2', quote: 'The second paragraph is here with its own words.' },
    { key: '3', quote: 'Omega psi chi entirely different words nowhere in it' },
  ];
  const data = buildReportData({
    title: 't',
    tool: 'citegeist test',
    inputs: [],
    grades: {
      grades: [
        {
          name: 'g',
          manifest: null,
          rows: [grade({ row_id: 'q', model: 'm', paper_id: 'p', citation_accuracy: 2 / 3 })],
        },
      ],
      runs: [{ name: 'run.jsonl', manifest: null, rows: [run('q', 'm', 'answer', citations)] }],
      dataset,
      papers: new Map([['p', doc]]),
      paperText: 'auto',
    },
    faithfulness: [
      {
        name: 'f',
        manifest: null,
        meta: { answers: 'runs/run.jsonl' },
        rows: [{ id: 'q', status: 'scored', segments: [] }],
      },
    ],
  });

  it('locates each citation, says which gold alternative it matched, and gives the nearest passage on a miss', () => {
    const [a, b, c] = data.answers[0]!.citations;
    const marks = data.papers[0]!.marks;
    // The matcher strips a quote's edge punctuation (METHODS §1.2 rule 4): the span ends before the period.
    expect([a!.rule, marks[a!.m!], a!.gold]).toEqual(['exact', [0, 56, 'c'], null]);
    expect([b!.rule, b!.gold?.g, b!.gold?.a, b!.gold?.ratio]).toEqual(['exact', 0, 0, 1]);
    expect([c!.rule, c!.m, c!.near !== null]).toEqual(['none', null, true]);
    expect(data.questions[0]!.groups[0]!.alts[0]).toMatchObject({ m: expect.any(Number) });
    expect(data.papers[0]!.parts).toEqual([[0, doc.text]]);
  });

  it('links a VETSCORE answer to its run through the answers file it names', () => {
    expect(data.vetscore!.answers[0]!.a).toBe(0);
    expect(data.answers[0]!.vet).toBe(0);
  });

  it('shows only the metrics that apply somewhere', () => {
    expect(data.metrics.map((m) => m.id)).toEqual(['citation_accuracy']);
    expect(RESEARCHQA_METRICS.length).toBeGreaterThan(1);
    expect(data.runs[0]!.overall.metrics.citation_accuracy).toMatchObject({ n: 1, mean: 2 / 3 });
  });
});
