/** Moved to the LLM layer so every stage's prompts share it (generation may not import grade). */
export { delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';

/**
 * What every judge that quotes evidence is told about its quote: verbatim, one contiguous passage,
 * and checked (`src/text/locate-evidence.ts`), so an invented or paraphrased quote cannot pass.
 */
export const VERBATIM_QUOTE_NOTE =
  'Copy the quote character for character from one excerpt: one contiguous passage, no paraphrase, no ellipsis, no added or changed words. The quote is checked against the excerpts; a "supported" verdict whose quote is not found there is not counted as supported.';
