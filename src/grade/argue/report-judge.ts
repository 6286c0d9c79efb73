import type { Verdict } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import type { CitedDocument } from './documents.js';
import type { MatchedNugget } from './judgments.js';

/** A nugget as a judge sees it: the question and its gold answers (the keys of the bank). */
export interface JudgeNugget {
  question: string;
  answers: string[];
  importance: number | string | null;
}

export interface Attestation {
  attested: boolean;
  /** A verbatim passage of the cited text that supports the sentence (when attested), or null. */
  evidenceQuote: string | null;
  rationale?: string;
}

/**
 * The questions ARGUE asks about a report's sentences (Mayfield et al., SIGIR 2024; Auto-ARGUE).
 * Every answer is a tri-state Verdict: a call that failed is `failed` with its reason and is
 * recorded as a failed judgment, never read as "no".
 */
export interface ReportJudge {
  /** Written as each judgment's `evaluator` ("lexical", "openai:gpt-4.1-mini"). */
  readonly id: string;
  /** Does the cited document attest (entail) the sentence? */
  attest(sentence: string, doc: CitedDocument): Promise<Verdict<Attestation>>;
  /** Is the cited document relevant to the request? */
  relevance(request: ReportRequest, doc: CitedDocument): Promise<Verdict<boolean>>;
  /** Which nugget answers does the sentence give? */
  matchNuggets(
    sentence: string,
    request: ReportRequest,
    nuggets: JudgeNugget[],
  ): Promise<Verdict<MatchedNugget[]>>;
  /** An uncited sentence: does it make a claim that needs a citation? */
  requiresCitation(sentence: string, request: ReportRequest): Promise<Verdict<boolean>>;
  /** Is this the first time the report states the sentence's claim? */
  firstInstance(sentence: string, previous: string[]): Promise<Verdict<boolean>>;
  /** Is the sentence a negative assertion ("no study reports X")? */
  negative(sentence: string): Promise<Verdict<boolean>>;
}
