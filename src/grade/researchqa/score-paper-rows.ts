import type { RunRow } from '../../core/index.js';
import { type MatchForms, type MatchMode, preparePaper } from '../../text/index.js';
import {
  type AlternativeMatch,
  allFailed,
  type CitationScores,
  citationScores,
  type ScoredRow,
  type ScoreOptions,
} from './citation-metrics.js';
import { paperQuotes } from './paper-quotes.js';

/** What the deterministic metrics read of a dataset row and its answer (and what a worker is sent). */
export interface ScoringRow {
  row: ScoredRow;
  answer: Pick<RunRow, 'citations' | 'contract' | 'error'>;
}

/** A paper to score rows against: its text (null: unavailable) and its stored match forms, if any. */
export interface PaperToScore {
  text: string | null;
  forms?: MatchForms | null;
}

/**
 * The deterministic metrics of the rows of one paper. The paper is prepared once for all of them
 * (from its stored forms when given) and dropped afterwards. A row that throws is recorded as
 * failed; the others are still scored.
 */
export function scorePaperRows(
  { text, forms }: PaperToScore,
  rows: readonly ScoringRow[],
  match: AlternativeMatch,
  quoteMode: MatchMode,
  options: ScoreOptions = {},
): CitationScores[] {
  let quotes: ReturnType<typeof paperQuotes> | null = null;
  try {
    quotes = text === null ? null : paperQuotes(preparePaper(text, { forms }), quoteMode);
  } catch (error) {
    const reason = `the paper text could not be prepared: ${(error as Error).message}`;
    return rows.map(() => allFailed(reason));
  }
  return rows.map(({ row, answer }) => {
    try {
      return citationScores(row, answer, quotes, match, options);
    } catch (error) {
      return allFailed(`grading failed: ${(error as Error).message}`);
    }
  });
}
