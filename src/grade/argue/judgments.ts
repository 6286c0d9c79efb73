/**
 * The judgments file: JSON Lines, one judged report per line, in the layout Auto-ARGUE writes and
 * ARGUE-viz reads (hltcoe/argue-viz `assets/example-report.judgments.jsonl` and
 * `src/streamlit_app.py` @ ada21228, lines 390–430): the run's report line under `report`, then per
 * sentence `{segment_type: "sentence", text, citations[{doc_id, text}], judgments[{judgment_type_id,
 * response{judgment_type_id, …}, evaluator, provenance{doc_id, sentence, run_id, sent_id}}]}`.
 *
 * citegeist adds, where the viewer does not look: `failed_judgments` per sentence (a judge call
 * that failed is recorded with its reason, never written as a "no"), the evidence quote of an
 * attestation and of a nugget match with its grounding (`evidence-grounding.ts`: where the quote
 * was found, or `unverified` with the nearest passage, and whether it counts), and a `citegeist`
 * block saying how the report was judged.
 *
 * A judgment without `grounding` was never checked: Auto-ARGUE's own judgments (its attestation is
 * a YES/NO with no quote to look for) and citegeist's from before grounding. The scorer counts those
 * as the judge said, as Auto-ARGUE does; a citegeist model judge's "attested" or nugget match with a
 * missing, empty or unfound quote always has a grounding, `unverified`, and counts only under
 * `--trust-unlocated-evidence`.
 * The uncited-sentence judgments (requires a citation, first instance, negative assertion) have
 * ids of our own: Auto-ARGUE's public outputs contain no uncited sentences to copy them from.
 */
import type { EvidenceTally, SupportGrounding } from '../evidence-grounding.js';

export const JUDGMENT = {
  attested: 'SENTENCE_ATTESTED',
  relevance: 'CITED_DOCUMENT_RELEVANCE',
  answers: 'SENTENCE_ANSWERS_QUESTION',
  requiresCitation: 'SENTENCE_REQUIRES_CITATION',
  firstInstance: 'SENTENCE_FIRST_INSTANCE',
  negative: 'SENTENCE_NEGATIVE_ASSERTION',
} as const;
export type JudgmentTypeId = (typeof JUDGMENT)[keyof typeof JUDGMENT];

export interface Provenance {
  doc_id: string | null;
  sentence: string | null;
  run_id: string | null;
  sent_id: number | null;
}

export interface MatchedNugget {
  question_text: string;
  matched_answer: string[];
  importance: number | string | null;
  /** citegeist: the words of the sentence that give the answers, as the judge quoted them. */
  sentence_quote?: string | null;
  /** citegeist: that quote located in the sentence (span key `sentence`), or unverified. */
  grounding?: SupportGrounding;
}

export type JudgmentResponse =
  | {
      judgment_type_id: typeof JUDGMENT.attested;
      is_attested: boolean;
      /** Verbatim passage of the cited text that supports the sentence (when attested). */
      evidence_quote?: string | null;
      /** citegeist, when attested: the quote located in the cited document (span key: its id), or unverified. */
      grounding?: SupportGrounding | null;
      rationale?: string;
    }
  | { judgment_type_id: typeof JUDGMENT.relevance; doc_id: string; is_relevant: boolean }
  | { judgment_type_id: typeof JUDGMENT.answers; matched_nuggets: MatchedNugget[] }
  | { judgment_type_id: typeof JUDGMENT.requiresCitation; requires_citation: boolean }
  | { judgment_type_id: typeof JUDGMENT.firstInstance; is_first_instance: boolean }
  | { judgment_type_id: typeof JUDGMENT.negative; is_negative: boolean };

export interface Judgment {
  judgment_type_id: JudgmentTypeId;
  response: JudgmentResponse;
  evaluator: string;
  provenance: Provenance;
}

export interface FailedJudgment {
  judgment_type_id: JudgmentTypeId;
  evaluator: string;
  provenance: Provenance;
  reason: string;
}

export interface JudgedSentence {
  segment_type: 'sentence';
  text: string;
  citations: { doc_id: string; text: string }[];
  judgments: Judgment[];
  failed_judgments?: FailedJudgment[];
}

/** How a report was judged (absent in Auto-ARGUE's own files). */
export interface JudgeRecord {
  version: string;
  judge: string;
  /** Sentences left out because the report passed the request's length limit. */
  truncated_sentences: number;
  length_limit: number | null;
  length_mode: 'characters' | 'words';
  failed: number;
  /** Claims of support (attested citations, nugget matches) per judge model: located or unverified. */
  evidence?: { attestations: EvidenceTally[]; nugget_matches: EvidenceTally[] };
  /** Unverified claims of support counted as the judge said (`--trust-unlocated-evidence`). */
  trust_unlocated_evidence?: boolean;
  /**
   * Judged K > 1 times (`reports judge --repeats K`): K. The line's own `judgments` are the first
   * repeat's (what ARGUE-viz shows); `failed` and `evidence` count every repeat.
   */
  repeats?: number;
  /** The judgments of repeats 2..K, per sentence in the order of `judgments` (`judge-repeats.ts`). */
  repeat_judgments?: RepeatSentence[][];
}

/** One sentence's judgments in a later judge repeat (its text and citations are the line's). */
export interface RepeatSentence {
  judgments: Judgment[];
  failed_judgments?: FailedJudgment[];
}

export interface JudgedReport {
  report: Record<string, unknown>;
  judgments: JudgedSentence[];
  citegeist?: JudgeRecord;
}

export function provenance(docId: string | null, runId: string | null = null, sentId: number | null = null) {
  return { doc_id: docId, sentence: null, run_id: runId, sent_id: sentId } satisfies Provenance;
}
