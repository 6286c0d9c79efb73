/** text/: normalisation with offset maps, the quote matcher, the difflib port, tokenizer, sentences. */

export { withRoom } from './grow-array.js';
export {
  type EvidenceSource,
  type GroundedSpan,
  isEmptyQuote,
  locateEvidence,
  type NearestEvidence,
  type QuoteLocation,
  QuoteLocator,
} from './locate-evidence.js';
export { locateQuotes, type QuoteInput, type QuoteRow, readQuotes, truncate } from './locate-quotes.js';
export {
  type MatchMode,
  type MatchOptions,
  type MatchRule,
  matchAnyQuote,
  matchQuote,
  matchQuoteModes,
  type QuoteMatch,
} from './match-quote.js';
export type { MatchTokens, TokenKind } from './match-tokens.js';
export type { NearestPassage } from './nearest-passage.js';
export { type NormalizedText, normalizeQuote, normalizeText, toOriginalSpan } from './normalize.js';
export {
  MATCH_FORMS_VERSION,
  type MatchForms,
  matchForms,
  type NoSpaceText,
  noSpaceString,
  type PreparedPaper,
  type PrepareOptions,
  preparePaper,
} from './prepare-paper.js';
export {
  type MatchingBlock,
  type SequenceRatioOptions,
  sequenceMatchingBlocks,
  sequenceRatio,
  sequenceRatioAtLeast,
} from './sequence-ratio.js';
export { type Sentence, splitSentences } from './split-sentences.js';
export { formatScore, renderTable, type TableColumn } from './text-table.js';
export type { StoredTokens, TokenIndex } from './token-index.js';
export { type Token, type TokenizeOptions, tokenize, tokenizeWithOffsets, WORD_PATTERN } from './tokenize.js';
export { WordScanner, WordTable } from './word-scanner.js';
