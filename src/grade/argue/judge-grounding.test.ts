import { describe, expect, it } from 'vitest';
import { parseReport, type ReportRequest } from '../../formats/index.js';
import { FakeLlm } from '../../testing/index.js';
import { countReport, type ReportCounts } from './count-report.js';
import type { CitedDocumentSource } from './documents.js';
import { judgeReport } from './judge-report.js';
import { JUDGMENT, type JudgedReport, type JudgmentResponse, type MatchedNugget } from './judgments.js';
import { LexicalJudge } from './lexical-judge.js';
import { LlmReportJudge } from './llm-report-judge.js';
import { indexNuggetBank } from './nugget-index.js';

// d2 is PDF-style text: a page number and a running header inside a sentence.
const docs: Record<string, string> = {
  d1: 'The trial enrolled 120 patients. Drug A lowered blood pressure by 10 mmHg in the treated group.',
  d2: 'Drug A was well tolerated by the\n12\nJournal of Hypertension 2021\npatients in both arms.',
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

/** Each sentence cites one document; the judge's attestation quote and nugget match per sentence. */
const S = {
  located: 'Drug A lowered blood pressure by 10 mmHg.',
  unlocated: 'Drug A lowered blood pressure by 20 mmHg.',
  gapped: 'Drug A was well tolerated.',
  empty: 'The trial enrolled 120 patients.',
  missing: 'Drug A is safe.',
  notAttested: 'Drug A raised heart rate.',
};
const cites: Record<string, string> = { [S.gapped]: 'd2' };
const attestation: Record<string, { attested: boolean; evidence_quote?: string | null }> = {
  [S.located]: { attested: true, evidence_quote: 'lowered blood pressure by 10 mmHg' },
  // The judge quotes the sentence's own number, which the document does not give.
  [S.unlocated]: { attested: true, evidence_quote: 'Drug A lowered blood pressure by 20 mmHg' },
  // Verbatim except for the page number and running header the PDF put between its lines.
  [S.gapped]: { attested: true, evidence_quote: 'Drug A was well tolerated by the patients in both arms' },
  [S.empty]: { attested: true, evidence_quote: '  ""  ' },
  [S.missing]: { attested: true },
  [S.notAttested]: { attested: false, evidence_quote: null },
};
const matches: Record<string, { question: number; answers: number[]; sentence_quote?: string }[]> = {
  [S.located]: [{ question: 2, answers: [1], sentence_quote: 'by 10 mmHg' }],
  // The match quotes words the sentence does not have (it says 20 mmHg).
  [S.unlocated]: [{ question: 2, answers: [1], sentence_quote: 'by 10 mmHg' }],
  // No sentence quote at all.
  [S.empty]: [{ question: 1, answers: [1] }],
};

/** The text of a `<tag>` block of the last message. */
const block = (content: string, tag: string) =>
  content.slice(content.indexOf(`<${tag}>\n`) + tag.length + 3, content.indexOf(`\n</${tag}>`));

function scriptedJudge() {
  return new FakeLlm(
    (r) => {
      const system = r.messages[0]!.content;
      const user = r.messages.at(-1)!.content;
      const sentence = block(user, 'sentence');
      if (system.includes('cites')) return JSON.stringify(attestation[sentence]);
      if (system.includes('relevant')) return JSON.stringify({ relevant: true });
      if (system.includes('which questions')) return JSON.stringify({ matches: matches[sentence] ?? [] });
      throw new Error(`unexpected prompt: ${system}`);
    },
    { id: 'fake:judge' },
  );
}

const report = parseReport(
  {
    metadata: { team_id: 't', run_id: 'r', topic_id: 't1' },
    responses: Object.values(S).map((text) => ({ text, citations: [cites[text] ?? 'd1'] })),
    references: ['d1', 'd2'],
  },
  'run.jsonl line 1',
);

const judge = (trust: boolean, judgeWith = new LlmReportJudge(scriptedJudge())) =>
  judgeReport(
    { report, request, nuggets, limit: null, lengthMode: 'characters' },
    { judge: judgeWith, docs: source, version: 'test', trustUnlocatedEvidence: trust },
  );

type Attested = Extract<JudgmentResponse, { judgment_type_id: 'SENTENCE_ATTESTED' }>;
const attestedOf = (j: JudgedReport, text: string) =>
  j.judgments.find((s) => s.text === text)!.judgments.find((x) => x.judgment_type_id === JUDGMENT.attested)!
    .response as Attested;
const matchesOf = (j: JudgedReport, text: string) =>
  (
    j.judgments.find((s) => s.text === text)!.judgments.find((x) => x.judgment_type_id === JUDGMENT.answers)!
      .response as { matched_nuggets: MatchedNugget[] }
  ).matched_nuggets;

describe('ARGUE claims of support are grounded in the text the judge was shown', () => {
  it('locates attestation quotes in the cited document: exact and gapped located; unfound, empty and missing unverified', async () => {
    const judged = await judge(false);
    const start = docs.d1!.indexOf('lowered blood pressure by 10 mmHg');
    expect(attestedOf(judged, S.located).grounding).toEqual({
      status: 'located',
      counts: true,
      nearest: null,
      span: {
        key: 'd1',
        start,
        end: start + 'lowered blood pressure by 10 mmHg'.length,
        text: 'lowered blood pressure by 10 mmHg',
        rule: 'exact',
        spans: [{ start, end: start + 'lowered blood pressure by 10 mmHg'.length }],
      },
    });
    const gapped = attestedOf(judged, S.gapped).grounding!;
    expect(gapped).toMatchObject({ status: 'located', counts: true, span: { key: 'd2', rule: 'gapped' } });
    // The span runs over the page furniture (to the quote's last word); its matched parts leave it out.
    expect(gapped.span!.text).toBe(docs.d2!.slice(0, -1));
    expect(gapped.span!.spans.map((s) => docs.d2!.slice(s.start, s.end))).toEqual([
      'Drug A was well tolerated by the',
      'patients in both arms',
    ]);
    const unlocated = attestedOf(judged, S.unlocated);
    expect(unlocated).toMatchObject({
      is_attested: true,
      evidence_quote: 'Drug A lowered blood pressure by 20 mmHg',
      grounding: { status: 'unverified', reason: 'not-found', span: null, counts: false },
    });
    // The nearest passage says where the judge probably looked.
    expect(unlocated.grounding!.nearest).toMatchObject({ key: 'd1' });
    expect(unlocated.grounding!.nearest!.text).toContain('Drug A lowered blood pressure by 10 mmHg');
    for (const text of [S.empty, S.missing]) {
      expect(attestedOf(judged, text).grounding).toEqual({
        status: 'unverified',
        reason: 'no-quote',
        span: null,
        nearest: null,
        counts: false,
      });
    }
    // "Not attested" claims no support: nothing to ground.
    expect(attestedOf(judged, S.notAttested)).toMatchObject({ is_attested: false, grounding: null });
  });

  it('locates nugget match quotes in the sentence: a quote the sentence lacks, or none, is unverified', async () => {
    const judged = await judge(false);
    expect(matchesOf(judged, S.located)).toEqual([
      {
        question_text: nuggets[1]!.question,
        matched_answer: ['10 mmHg'],
        importance: null,
        sentence_quote: 'by 10 mmHg',
        grounding: {
          status: 'located',
          counts: true,
          nearest: null,
          span: {
            key: 'sentence',
            start: 30,
            end: 40,
            text: 'by 10 mmHg',
            rule: 'exact',
            spans: [{ start: 30, end: 40 }],
          },
        },
      },
    ]);
    expect(matchesOf(judged, S.unlocated)[0]!.grounding).toMatchObject({
      status: 'unverified',
      reason: 'not-found',
      counts: false,
      nearest: { key: 'sentence' },
    });
    expect(matchesOf(judged, S.empty)[0]).toMatchObject({
      sentence_quote: null,
      grounding: { status: 'unverified', reason: 'no-quote', counts: false },
    });
    expect(judged.citegeist).toMatchObject({
      trust_unlocated_evidence: false,
      evidence: {
        attestations: [{ judge: 'fake:judge', claimed_support: 5, located: 2, unverified: 3 }],
        nugget_matches: [{ judge: 'fake:judge', claimed_support: 3, located: 1, unverified: 2 }],
      },
    });
  });

  it('scores unverified support as no support, and as the judge said with the flag (counts by hand)', async () => {
    const count = async (trust: boolean) => countReport((await judge(trust)).judgments, index);
    const strict = await count(false);
    const trusted = await count(true);
    // Six cited sentences, one citation each. The judge attested five; two quotes were located.
    const byHand = (supporting: number, correct: number): Partial<ReportCounts> => ({
      citations: 6,
      relevantCitations: 6,
      supportingCitations: supporting,
      sentencesWithCitationsOrRequiring: 6,
      correctlyCitedSentences: supporting,
      nuggets: 2,
      correctNuggets: correct,
    });
    // Without the flag: located and gapped attestations; the one located match (10 mmHg).
    expect(strict).toMatchObject(byHand(2, 1));
    expect(strict.grounding).toEqual({
      citations: { located: 2, unverified: 3, trusted: 0, ungrounded: 0 },
      nuggetMatches: { located: 1, unverified: 2, trusted: 0, ungrounded: 0 },
    });
    // With it: all five attestations, and the unverified "120 patients" match pools too.
    expect(trusted).toMatchObject(byHand(5, 2));
    expect(trusted.grounding).toEqual({
      citations: { located: 2, unverified: 0, trusted: 3, ungrounded: 0 },
      nuggetMatches: { located: 1, unverified: 0, trusted: 2, ungrounded: 0 },
    });
  });

  it("the lexical judge's attestations and nugget matches carry located spans", async () => {
    const lexical = new LexicalJudge();
    const judged = await judgeReport(
      {
        report: parseReport(
          {
            metadata: { team_id: 't', run_id: 'r', topic_id: 't1' },
            responses: [
              // Verbatim in d1.
              { text: 'Drug A lowered blood pressure by 10 mmHg in the treated group.', citations: ['d1'] },
              // Its terms spread over d1's two sentences: the two-sentence window is the quote.
              { text: 'The trial of 120 patients showed drug A lowered pressure.', citations: ['d1'] },
              // d2's one sentence, page furniture included, is the passage.
              { text: 'Drug A was well tolerated by patients in both arms.', citations: ['d2'] },
            ],
            references: ['d1', 'd2'],
          },
          'run.jsonl line 1',
        ),
        request,
        nuggets,
        limit: null,
        lengthMode: 'characters',
      },
      { judge: lexical, docs: source, version: 'test' },
    );
    const attested = judged.judgments.map(
      (s) => s.judgments.find((j) => j.judgment_type_id === JUDGMENT.attested)!.response as Attested,
    );
    expect(attested.map((a) => [a.is_attested, a.grounding?.status, a.grounding?.span?.rule])).toEqual([
      [true, 'located', 'exact'],
      [true, 'located', 'exact'],
      [true, 'located', 'exact'],
    ]);
    // Edge punctuation of a quote is not part of its span (METHODS §1.2 rule 4).
    expect(attested[1]!.grounding!.span!.text).toBe(docs.d1!.slice(0, -1));
    const [first, second] = [judged.judgments[0]!.text, judged.judgments[1]!.text];
    expect(matchesOf(judged, first).map((m) => [m.sentence_quote, m.grounding?.status])).toEqual([
      ['10 mmHg', 'located'],
    ]);
    expect(matchesOf(judged, second).map((m) => [m.sentence_quote, m.grounding?.span?.text])).toEqual([
      ['120 patients', '120 patients'],
    ]);
    expect(judged.citegeist!.evidence).toEqual({
      attestations: [{ judge: lexical.id, claimed_support: 3, located: 3, unverified: 0 }],
      nugget_matches: [{ judge: lexical.id, claimed_support: 2, located: 2, unverified: 0 }],
    });
  });
});
