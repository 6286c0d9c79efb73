/**
 * ARGUE's sentence-by-sentence flow over one report (METHODS §5 step 6; Mayfield et al., SIGIR
 * 2024; the judgments layout of Auto-ARGUE):
 *
 * 1. the report is cut to the request's length limit (whole sentences; see `sentencesWithinLimit`);
 * 2. a cited sentence: per citation, CITED_DOCUMENT_RELEVANCE (once per document and report),
 *    SENTENCE_ANSWERS_QUESTION (the sentence's nugget matches, recorded under each citation as
 *    ARGUE-viz expects) and SENTENCE_ATTESTED with its evidence quote located in the cited text;
 * 3. an uncited sentence: negative assertion? then its nugget matches; otherwise does it need a
 *    citation, and is it the first instance of its claim (the first sentence always is)?
 *
 * Every claim of support is grounded (`evidence-grounding.ts`): an attestation's evidence quote is
 * looked for in the cited document, a nugget match's quote in the sentence, with the shared strict
 * locator. One not found (or not given) is `unverified` and does not count unless
 * `trustUnlocatedEvidence`; the report's `citegeist.evidence` tallies both kinds per judge model.
 *
 * A judge call that fails, or a cited document that cannot be found, becomes a failed judgment
 * with its reason; the rest of the report is still judged.
 */

import type { Verdict } from '../../core/index.js';
import {
  type LengthMode,
  type Report,
  type ReportRequest,
  sentencesWithinLimit,
  toRagtimeLine,
} from '../../formats/index.js';
import { QuoteLocator } from '../../text/index.js';
import { type GroundingOptions, groundSupport, tallyEvidence } from '../evidence-grounding.js';
import type { CitedDocument, CitedDocumentSource } from './documents.js';
import {
  type FailedJudgment,
  JUDGMENT,
  type JudgedReport,
  type JudgedSentence,
  type Judgment,
  type JudgmentResponse,
  type JudgmentTypeId,
  type MatchedNugget,
  provenance,
} from './judgments.js';
import type { JudgeNugget, ReportJudge } from './report-judge.js';

export interface JudgeReportInput {
  report: Report;
  request: ReportRequest;
  nuggets: JudgeNugget[];
  /** The length limit to apply (the request's, or one given for all requests); null: none. */
  limit: number | null;
  lengthMode: LengthMode;
}

export interface JudgeReportContext extends GroundingOptions {
  judge: ReportJudge;
  docs: CitedDocumentSource;
  version: string;
  /** Locates evidence quotes in cited documents, preparing each once (shared across reports; bounded). */
  locator?: QuoteLocator;
  /** `--repeats K`: the K judges (one seed each) every report is judged by (`judge-repeats.ts`). */
  repeatJudges?: readonly ReportJudge[];
}

/** Grounds each match's sentence quote in the sentence (span key `sentence`). */
function groundMatches(
  sentence: string,
  matches: MatchedNugget[],
  options: GroundingOptions,
): MatchedNugget[] {
  const locator = new QuoteLocator(1);
  const source = [{ key: 'sentence', text: sentence }];
  return matches.map((m) => ({
    ...m,
    grounding: groundSupport(locator.locate(m.sentence_quote, source), options),
  }));
}

class SentenceRecorder {
  readonly judgments: Judgment[] = [];
  readonly failures: FailedJudgment[] = [];
  constructor(
    private readonly evaluator: string,
    private readonly runId: string,
    private readonly sentId: number,
  ) {}

  record<T>(
    type: JudgmentTypeId,
    docId: string | null,
    v: Verdict<T>,
    response: (value: T) => JudgmentResponse,
  ) {
    const prov = provenance(docId, this.runId, this.sentId);
    if (v.status === 'scored') {
      this.judgments.push({
        judgment_type_id: type,
        response: response(v.value),
        evaluator: this.evaluator,
        provenance: prov,
      });
    } else {
      const reason = v.status === 'failed' ? v.reason : `not applicable: ${v.reason}`;
      this.failures.push({ judgment_type_id: type, evaluator: this.evaluator, provenance: prov, reason });
    }
  }

  fail(type: JudgmentTypeId, docId: string | null, reason: string) {
    this.failures.push({
      judgment_type_id: type,
      evaluator: this.evaluator,
      provenance: provenance(docId, this.runId, this.sentId),
      reason,
    });
  }
}

/** Judges one report; never throws on a judge failure or a missing document. */
export async function judgeReport(input: JudgeReportInput, ctx: JudgeReportContext): Promise<JudgedReport> {
  const { report, request } = input;
  const texts = report.sentences.map((s) => s.text);
  const kept =
    input.limit === null ? texts.length : sentencesWithinLimit(texts, input.limit, input.lengthMode);
  const relevance = new Map<string, Promise<Verdict<boolean>>>();
  const relevanceOf = (doc: CitedDocument) => {
    const known = relevance.get(doc.id);
    if (known) return known;
    const p = ctx.judge.relevance(request, doc);
    relevance.set(doc.id, p);
    return p;
  };
  const locator = ctx.locator ?? new QuoteLocator();
  const grounding: GroundingOptions = { trustUnlocatedEvidence: ctx.trustUnlocatedEvidence === true };
  const attestations: { judge: string; status: 'located' | 'unverified' }[] = [];
  const matched: { judge: string; status: 'located' | 'unverified' }[] = [];
  const judgeMatches = async (text: string) => {
    const v = await ctx.judge.matchNuggets(text, request, input.nuggets);
    if (v.status !== 'scored') return v;
    const value = groundMatches(text, v.value, grounding);
    for (const m of value) matched.push({ judge: ctx.judge.id, status: m.grounding!.status });
    return { ...v, value };
  };
  const sentences = await Promise.all(
    report.sentences.slice(0, kept).map(async (s, i): Promise<JudgedSentence> => {
      const rec = new SentenceRecorder(ctx.judge.id, report.runId, i);
      const docs = s.citations.map((id) => ({ id, doc: ctx.docs.get(id) }));
      if (s.citations.length > 0) {
        const matches = await judgeMatches(s.text);
        await Promise.all(
          docs.map(async ({ id, doc }) => {
            if (!doc) {
              const why = `cited document ${id} is not in ${ctx.docs.description}`;
              rec.fail(JUDGMENT.relevance, id, why);
              rec.record(JUDGMENT.answers, id, matches, (m) => ({
                judgment_type_id: JUDGMENT.answers,
                matched_nuggets: m,
              }));
              rec.fail(JUDGMENT.attested, id, why);
              return;
            }
            const [rel, att] = await Promise.all([relevanceOf(doc), ctx.judge.attest(s.text, doc)]);
            rec.record(JUDGMENT.relevance, id, rel, (r) => ({
              judgment_type_id: JUDGMENT.relevance,
              doc_id: id,
              is_relevant: r,
            }));
            rec.record(JUDGMENT.answers, id, matches, (m) => ({
              judgment_type_id: JUDGMENT.answers,
              matched_nuggets: m,
            }));
            rec.record(JUDGMENT.attested, id, att, (a) => {
              // Only a claim of support is grounded; "not attested" needs no evidence.
              const g = a.attested
                ? groundSupport(locator.locate(a.evidenceQuote, [{ key: doc.id, text: doc.text }]), grounding)
                : null;
              if (g) attestations.push({ judge: ctx.judge.id, status: g.status });
              return {
                judgment_type_id: JUDGMENT.attested,
                is_attested: a.attested,
                evidence_quote: a.evidenceQuote,
                grounding: g,
                ...(a.rationale !== undefined ? { rationale: a.rationale } : {}),
              };
            });
          }),
        );
      } else {
        await judgeUncited(s.text, texts.slice(0, i), input, ctx.judge, rec, judgeMatches);
      }
      const out: JudgedSentence = {
        segment_type: 'sentence',
        text: s.text,
        citations: docs.map(({ id, doc }) => ({ doc_id: id, text: doc?.text ?? '' })),
        judgments: rec.judgments,
      };
      if (rec.failures.length > 0) out.failed_judgments = rec.failures;
      return out;
    }),
  );
  const failedCount = sentences.reduce((n, s) => n + (s.failed_judgments?.length ?? 0), 0);
  return {
    report: toRagtimeLine(report),
    judgments: sentences,
    citegeist: {
      version: ctx.version,
      judge: ctx.judge.id,
      truncated_sentences: texts.length - kept,
      length_limit: input.limit,
      length_mode: input.lengthMode,
      failed: failedCount,
      evidence: { attestations: tallyEvidence(attestations), nugget_matches: tallyEvidence(matched) },
      trust_unlocated_evidence: grounding.trustUnlocatedEvidence === true,
    },
  };
}

async function judgeUncited(
  text: string,
  previous: string[],
  input: JudgeReportInput,
  judge: ReportJudge,
  rec: SentenceRecorder,
  judgeMatches: (text: string) => Promise<Verdict<MatchedNugget[]>>,
): Promise<void> {
  const negative = await judge.negative(text);
  rec.record(JUDGMENT.negative, null, negative, (v) => ({
    judgment_type_id: JUDGMENT.negative,
    is_negative: v,
  }));
  if (negative.status !== 'scored') return;
  if (negative.value) {
    const matches = await judgeMatches(text);
    rec.record(JUDGMENT.answers, null, matches, (m) => ({
      judgment_type_id: JUDGMENT.answers,
      matched_nuggets: m,
    }));
    return;
  }
  const requires = await judge.requiresCitation(text, input.request);
  rec.record(JUDGMENT.requiresCitation, null, requires, (v) => ({
    judgment_type_id: JUDGMENT.requiresCitation,
    requires_citation: v,
  }));
  if (requires.status !== 'scored' || !requires.value) return;
  const first =
    previous.length === 0
      ? ({ status: 'scored', value: true } as const)
      : await judge.firstInstance(text, previous);
  rec.record(JUDGMENT.firstInstance, null, first, (v) => ({
    judgment_type_id: JUDGMENT.firstInstance,
    is_first_instance: v,
  }));
}
