import type { DatasetRow, RunRow } from '../core/index.js';
import { matchQuote, preparePaper } from '../text/index.js';
import { stripMarkers } from './evidence-parser.js';
import type { PaperContext } from './paper-context.js';

/** One line of QASPER's official predictions file. */
export interface QasperPredictionLine {
  question_id: string;
  predicted_answer: string;
  predicted_evidence: string[];
}

const REFUSAL =
  /\b(does not (say|state|mention|specify|report|answer|provide|contain|discuss)|not (stated|mentioned|specified|reported|discussed) in the paper|cannot be answered|unanswerable|no information)\b/i;

/** Whether an answer is a refusal ("The paper does not say …") rather than an answer. */
export function isRefusal(answer: string): boolean {
  return answer.trim() === '' || REFUSAL.test(answer);
}

/**
 * A run row as an official QASPER prediction: the answer without markers ("Unanswerable" for a
 * refusal without citations), and as evidence the paper paragraphs that contain the cited quotes
 * (QASPER evidence is whole paragraphs). Rows without `metadata.question_id` give null.
 */
export function qasperPrediction(
  row: DatasetRow,
  run: RunRow,
  paper: PaperContext | null,
  prepared?: ReturnType<typeof preparePaper>,
): QasperPredictionLine | null {
  const questionId = row.metadata.question_id;
  if (typeof questionId !== 'string') return null;
  const answer = stripMarkers(run.answer);
  if (run.citations.length === 0 && isRefusal(answer)) {
    return { question_id: questionId, predicted_answer: 'Unanswerable', predicted_evidence: [] };
  }
  const evidence: string[] = [];
  if (paper) {
    const p = prepared ?? preparePaper(paper.text);
    for (const c of run.citations) {
      const m = matchQuote(p, c.quote, { nearest: false });
      const span = m.matched ? m.spans[0] : undefined;
      if (!span) continue;
      const paragraph = paper.paragraphAt(span.start);
      if (paragraph !== '' && !evidence.includes(paragraph)) evidence.push(paragraph);
    }
  }
  return { question_id: questionId, predicted_answer: answer, predicted_evidence: evidence };
}
