/**
 * The judgments file: JSON Lines, one judged report per line, in the layout Auto-ARGUE writes and
 * ARGUE-viz reads (hltcoe/argue-viz `assets/example-report.judgments.jsonl` and
 * `src/streamlit_app.py` @ ada21228, lines 390–430): the run's report line under `report`, then per
 * sentence `{segment_type: "sentence", text, citations[{doc_id, text}], judgments[{judgment_type_id,
 * response{judgment_type_id, …}, evaluator, provenance{doc_id, sentence, run_id, sent_id}}]}`.
 *
 * citegeist adds, where the viewer does not look: `failed_judgments` per sentence (a judge call
 * that failed is recorded with its reason, never written as a "no"), the evidence quote of an
 * attestation and where it was found, and a `citegeist` block saying how the report was judged.
 * The uncited-sentence judgments (requires a citation, first instance, negative assertion) have
 * ids of our own: Auto-ARGUE's public outputs contain no uncited sentences to copy them from.
 */
import type { MatchRule } from '../../text/index.js';

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
}

/** Where an attestation's evidence quote was found in the cited text (strict quote matcher). */
export interface EvidenceLocation {
  located: boolean;
  rule: MatchRule;
  /** `[start, end)` spans in the cited document's text. */
  spans: [number, number][];
}

export type JudgmentResponse =
  | {
      judgment_type_id: typeof JUDGMENT.attested;
      is_attested: boolean;
      /** Verbatim passage of the cited text that supports the sentence (when attested). */
      evidence_quote?: string | null;
      evidence?: EvidenceLocation | null;
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
}

export interface JudgedReport {
  report: Record<string, unknown>;
  judgments: JudgedSentence[];
  citegeist?: JudgeRecord;
}

export function provenance(docId: string | null, runId: string | null = null, sentId: number | null = null) {
  return { doc_id: docId, sentence: null, run_id: runId, sent_id: sentId } satisfies Provenance;
}
