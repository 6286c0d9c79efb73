import type { DatasetRow, RunRow } from '../core/index.js';
import { failed } from '../core/index.js';
import { type MatchMode, preparePaper } from '../text/index.js';
import { type AlternativeMatch, type CitationScores, citationScores } from './citation-metrics.js';
import { paperQuotes } from './paper-quotes.js';

/** What the deterministic metrics read of a dataset row and its answer (and what a worker is sent). */
export interface ScoringRow {
  row: Pick<DatasetRow, 'question_type' | 'expected_refusal' | 'expected_references'>;
  answer: Pick<RunRow, 'citations' | 'contract' | 'error'>;
}

/** Every metric failed with one reason. */
export function allFailed(reason: string): CitationScores {
  const f = failed<number>(reason);
  return { citation_precision: f, section_coverage: f, citation_accuracy: f, refusal_correctness: f };
}

/**
 * The deterministic metrics of the rows of one paper (`text` null: the paper is unavailable). The
 * paper is prepared once for all of them and dropped afterwards. A row that throws is recorded as
 * failed; the others are still scored.
 */
export function scorePaperRows(
  text: string | null,
  rows: readonly ScoringRow[],
  match: AlternativeMatch,
  quoteMode: MatchMode,
): CitationScores[] {
  let quotes: ReturnType<typeof paperQuotes> | null = null;
  try {
    quotes = text === null ? null : paperQuotes(preparePaper(text), quoteMode);
  } catch (error) {
    const reason = `the paper text could not be prepared: ${(error as Error).message}`;
    return rows.map(() => allFailed(reason));
  }
  return rows.map(({ row, answer }) => {
    try {
      return citationScores(row, answer, quotes, match);
    } catch (error) {
      return allFailed(`grading failed: ${(error as Error).message}`);
    }
  });
}
