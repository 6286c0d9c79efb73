import { describe, expect, it } from 'vitest';
import { parseReport, type ReportRequest } from '../../formats/index.js';
import type { GenerateRequest } from '../../llm/index.js';
import { FakeLlm } from '../../testing/index.js';
import { countReport } from './count-report.js';
import type { CitedDocumentSource } from './documents.js';
import { planJudging } from './judge-batch.js';
import { judgeReport } from './judge-report.js';
import { JUDGMENT, type JudgedSentence } from './judgments.js';
import { LexicalJudge } from './lexical-judge.js';
import { LlmReportJudge } from './llm-report-judge.js';
import { indexNuggetBank } from './nugget-index.js';

const docs: Record<string, string> = {
  d1: 'The trial enrolled 120 patients. Drug A lowered blood pressure by 10 mmHg in the treated group.',
  d2: 'Weather reports from Vienna. It rained often in spring.',
};
const source: CitedDocumentSource = {
  description: 'test docs',
  get: (id) => (docs[id] ? { id, text: docs[id]!, title: null } : null),
};
const request: ReportRequest = {
  id: 't1',
  title: 'Drug A and blood pressure',
  background: null,
  problemStatement: 'How much does drug A lower blood pressure in trials?',
  limit: null,
  raw: {},
  where: 'q',
};
const nuggets = [
  { question: 'How many patients were enrolled?', answers: ['120 patients'], importance: null },
  { question: 'By how much did drug A lower blood pressure?', answers: ['10 mmHg'], importance: null },
];
const report = (sentences: { text: string; citations: string[] }[]) =>
  parseReport(
    {
      metadata: { team_id: 't', run_id: 'r', topic_id: 't1' },
      responses: sentences,
      references: ['d1', 'd2', 'd9'],
    },
    'run.jsonl line 1',
  );

const types = (s: JudgedSentence) => s.judgments.map((j) => j.judgment_type_id);

describe('judgeReport with the lexical judge', () => {
  const judge = new LexicalJudge();
  it('follows the ARGUE flow per sentence and records the evidence located in the cited text', async () => {
    const judged = await judgeReport(
      {
        report: report([
          { text: 'Drug A lowered blood pressure by 10 mmHg in the treated group.', citations: ['d1', 'd2'] },
          { text: 'No trial measured heart rate.', citations: [] },
          { text: 'The trial enrolled 120 patients with high pressure.', citations: [] },
          { text: 'Overall.', citations: [] },
        ]),
        request,
        nuggets,
        limit: null,
        lengthMode: 'characters',
      },
      { judge, docs: source, version: 'test' },
    );
    const [cited, negative, claim, plain] = judged.judgments as [
      JudgedSentence,
      JudgedSentence,
      JudgedSentence,
      JudgedSentence,
    ];
    expect(types(cited)).toEqual([
      JUDGMENT.relevance,
      JUDGMENT.answers,
      JUDGMENT.attested,
      JUDGMENT.relevance,
      JUDGMENT.answers,
      JUDGMENT.attested,
    ]);
    const attested = cited.judgments
      .filter((j) => j.judgment_type_id === JUDGMENT.attested)
      .map((j) => j.response);
    // The matcher strips a quote's edge punctuation (METHODS §1.2 rule 4), so the span ends before the period.
    const text = 'Drug A lowered blood pressure by 10 mmHg in the treated group';
    const start = docs.d1!.indexOf(text);
    expect(attested[0]).toMatchObject({
      is_attested: true,
      grounding: {
        status: 'located',
        counts: true,
        span: { key: 'd1', start, end: start + text.length, text, rule: 'exact' },
        nearest: null,
      },
    });
    expect(attested[1]).toMatchObject({ is_attested: false, grounding: null });
    expect(types(negative)).toEqual([JUDGMENT.negative, JUDGMENT.answers]);
    expect(types(claim)).toEqual([JUDGMENT.negative, JUDGMENT.requiresCitation, JUDGMENT.firstInstance]);
    expect(types(plain)).toEqual([JUDGMENT.negative, JUDGMENT.requiresCitation]);
    expect(judged.report).toMatchObject({ metadata: { run_id: 'r', topic_id: 't1' } });
    expect(judged.citegeist).toMatchObject({ judge: judge.id, failed: 0, truncated_sentences: 0 });
    // The cited sentence names the blood-pressure answer; the uncited claim's "120 patients" is not matched (no call).
    const index = indexNuggetBank(
      {
        title_query: 't1',
        nugget_bank: Object.fromEntries(
          nuggets.map((n) => [
            n.question,
            { question: n.question, answers: Object.fromEntries(n.answers.map((a) => [a, { answer: a }])) },
          ]),
        ),
      },
      'bank',
    );
    expect(countReport(judged.judgments, index)).toMatchObject({
      sentences: 4,
      citations: 2,
      supportingCitations: 1,
      relevantCitations: 1,
      sentencesWithCitationsOrRequiring: 3,
      correctlyCitedSentences: 0,
      correctNuggets: 1,
    });
  });

  it('a cited id that is not in the documents is a failed judgment with its reason, not a crash', async () => {
    const judged = await judgeReport(
      {
        report: report([{ text: 'Something.', citations: ['d9'] }]),
        request,
        nuggets,
        limit: null,
        lengthMode: 'characters',
      },
      { judge, docs: source, version: 'test' },
    );
    const s = judged.judgments[0]!;
    expect(s.citations).toEqual([{ doc_id: 'd9', text: '' }]);
    expect(s.failed_judgments?.map((f) => [f.judgment_type_id, f.reason])).toEqual([
      [JUDGMENT.relevance, 'cited document d9 is not in test docs'],
      [JUDGMENT.attested, 'cited document d9 is not in test docs'],
    ]);
    expect(judged.citegeist!.failed).toBe(2);
  });

  it("cuts the report to the request's length limit at whole sentences before judging", async () => {
    const judged = await judgeReport(
      {
        report: report([
          { text: 'Aaaa.', citations: [] },
          { text: 'Bbbb.', citations: [] },
          { text: 'Cccc.', citations: [] },
        ]),
        request,
        nuggets,
        limit: 12,
        lengthMode: 'characters',
      },
      { judge, docs: source, version: 'test' },
    );
    expect(judged.judgments.map((s) => s.text)).toEqual(['Aaaa.', 'Bbbb.']);
    expect(judged.citegeist).toMatchObject({ truncated_sentences: 1, length_limit: 12 });
  });
});

/** A scripted model judge: answers each ARGUE question by looking at the prompt. */
function scripted(fail: (r: GenerateRequest) => boolean = () => false) {
  return new FakeLlm(
    (r) => {
      if (fail(r)) return { fail: 'HTTP 500: internal error' };
      const system = r.messages[0]!.content;
      const user = r.messages.at(-1)!.content;
      if (system.includes('cites')) {
        return user.includes('10 mmHg') && user.includes('120 patients')
          ? JSON.stringify({
              attested: true,
              evidence_quote: 'lowered blood pressure by 10 mmHg',
              rationale: 'stated',
            })
          : JSON.stringify({ attested: false, evidence_quote: null });
      }
      if (system.includes('relevant')) return JSON.stringify({ relevant: user.includes('Drug A') });
      if (system.includes('which questions'))
        return JSON.stringify({
          matches: user.includes('10 mmHg')
            ? [{ question: 2, answers: [1], sentence_quote: 'by 10 mmHg' }]
            : [],
        });
      if (system.includes('negative')) return JSON.stringify({ answer: false });
      return JSON.stringify({ answer: true });
    },
    { id: 'fake:judge' },
  );
}

describe('judgeReport with a model judge', () => {
  it('asks one structured question per judgment and maps nugget numbers back to their texts', async () => {
    const llm = scripted();
    const judged = await judgeReport(
      {
        report: report([
          { text: 'Drug A lowered blood pressure by 10 mmHg.', citations: ['d1', 'd1'] },
          { text: 'It matters.', citations: [] },
        ]),
        request,
        nuggets,
        limit: null,
        lengthMode: 'characters',
      },
      { judge: new LlmReportJudge(llm), docs: source, version: 'test' },
    );
    const answers = judged.judgments[0]!.judgments.find((j) => j.judgment_type_id === JUDGMENT.answers)!;
    expect(answers.response).toMatchObject({
      judgment_type_id: JUDGMENT.answers,
      matched_nuggets: [
        {
          question_text: 'By how much did drug A lower blood pressure?',
          matched_answer: ['10 mmHg'],
          importance: null,
          sentence_quote: 'by 10 mmHg',
          grounding: { status: 'located', counts: true, span: { key: 'sentence', text: 'by 10 mmHg' } },
        },
      ],
    });
    const att = judged.judgments[0]!.judgments.find((j) => j.judgment_type_id === JUDGMENT.attested)!;
    expect(att.evaluator).toBe('fake:judge');
    expect(att.response).toMatchObject({
      is_attested: true,
      grounding: { status: 'located', span: { key: 'd1', text: 'lowered blood pressure by 10 mmHg' } },
      rationale: 'stated',
    });
    // 1 nugget call + 2 attestations + 1 relevance (one per document) + uncited: negative, requires, first instance
    expect(llm.calls.length).toBe(7);
  });

  it('a failed call is a failed judgment; the other judgments of the report stand', async () => {
    const llm = scripted((r) => r.messages[0]!.content.includes('cites'));
    const judged = await judgeReport(
      {
        report: report([{ text: 'Drug A lowered blood pressure by 10 mmHg.', citations: ['d1'] }]),
        request,
        nuggets,
        limit: null,
        lengthMode: 'characters',
      },
      { judge: new LlmReportJudge(llm), docs: source, version: 'test' },
    );
    const s = judged.judgments[0]!;
    expect(types(s)).toEqual([JUDGMENT.relevance, JUDGMENT.answers]);
    expect(s.failed_judgments).toEqual([
      {
        judgment_type_id: JUDGMENT.attested,
        evaluator: 'fake:judge',
        provenance: { doc_id: 'd1', sentence: null, run_id: 'r', sent_id: 0 },
        reason: 'HTTP 500: internal error',
      },
    ]);
  });

  it('an out-of-range nugget number is sent back for repair, then accepted', async () => {
    let call = 0;
    const llm = new FakeLlm(() =>
      ++call === 1
        ? '{"matches": [{"question": 7, "answers": [1]}]}'
        : '{"matches": [{"question": 1, "answers": [1]}]}',
    );
    const verdict = await new LlmReportJudge(llm).matchNuggets(
      'The trial enrolled 120 patients.',
      request,
      nuggets,
    );
    expect(verdict).toEqual({
      status: 'scored',
      value: [
        {
          question_text: nuggets[0]!.question,
          matched_answer: ['120 patients'],
          importance: null,
          sentence_quote: null,
        },
      ],
    });
    expect(llm.calls[1]!.messages.at(-1)!.content).toMatch(/not valid/);
  });

  it('--dry-run plans the calls without making one', () => {
    const plan = planJudging(
      [
        {
          report: report([
            { text: 'A.', citations: ['d1', 'd9'] },
            { text: 'B.', citations: [] },
            { text: 'C.', citations: [] },
          ]),
          request,
          nuggets,
          limit: null,
          lengthMode: 'characters',
        },
      ],
      source,
      1000,
    );
    expect(plan).toMatchObject({ reports: 1, sentences: 3, citations: 2, missingDocuments: 1 });
    // nuggets 1 + attestation 1 + relevance 1 + negative/requires for B (first sentence after A: first-instance too) + C's three
    expect(plan.requests.length).toBe(3 + 3 + 3);
  });
});
