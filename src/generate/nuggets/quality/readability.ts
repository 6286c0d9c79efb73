/**
 * The two computed quality criteria of a nugget question (METHODS §5 step 4). The released values
 * come from an evaluator that is not published (manestay/dogmatiq `run_on_nugget_bank.py`), so
 * these are citegeist's own definitions, chosen to be reproducible without a model:
 *
 * - `reading_level`: the Flesch–Kincaid grade level, 0.39·words/sentences + 11.8·syllables/words
 *   − 15.59, with syllables counted by vowel groups (a silent final "e" dropped, at least one per
 *   word), never below 0;
 * - `complexity`: mean syllables per word (lexical complexity).
 *
 * Checked against the 40 released nuggets with quality scores (`nugget_with_scores_1001/1013`):
 * Spearman ρ with the released values 0.89 for reading level and 0.61 for complexity (a concept
 * count, log₂(1 + distinct content words), reached 0.43; words, characters, word length and
 * character entropy 0.10–0.55). The released figures themselves are not reproduced.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Syllables of an English word by vowel groups (a heuristic; exact for most common words). */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length === 0) return word.length > 0 ? 1 : 0;
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  const groups = trimmed.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

export function readingLevel(text: string): number {
  const ws = words(text);
  if (ws.length === 0) return 0;
  const sentences = Math.max(1, (text.match(/[.!?]+(?=\s|$)/g) ?? []).length);
  const syl = ws.reduce((n, w) => n + syllables(w), 0);
  return Math.max(0, 0.39 * (ws.length / sentences) + 11.8 * (syl / ws.length) - 15.59);
}

export function complexity(text: string): number {
  const ws = words(text);
  return ws.length === 0 ? 0 : ws.reduce((n, w) => n + syllables(w), 0) / ws.length;
}
