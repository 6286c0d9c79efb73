/**
 * Answer normalisation and token F1 of the official QASPER evaluator (`qasper_evaluator.py`, itself
 * SQuAD's): lowercase, drop ASCII punctuation, drop the articles a/an/the, collapse whitespace.
 * Python semantics are kept where they differ from JavaScript: `string.punctuation` is ASCII only,
 * `\b` and `str.split()` are Unicode-aware.
 */

const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's `re` word characters are Unicode alphanumerics and "_"; `\b` is a boundary between a
// word and a non-word character.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Python's str.split() whitespace: JavaScript's \s without U+FEFF, plus U+001C–U+001F and U+0085.
const PY_WHITESPACE =
  /[\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** Python `' '.join(text.split())`. */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t.length > 0);
}

/** The official `normalize_answer`. */
export function normalizeAnswer(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) if (!PUNCTUATION.has(ch)) out += ch;
  return pySplit(out.replace(ARTICLES, ' ')).join(' ');
}

/** The official `token_f1_score`: multiset overlap of normalised tokens. */
export function tokenF1(prediction: string, groundTruth: string): number {
  const predicted = pySplit(normalizeAnswer(prediction));
  const gold = pySplit(normalizeAnswer(groundTruth));
  const counts = new Map<string, number>();
  for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same++;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = (1.0 * same) / predicted.length;
  const recall = (1.0 * same) / gold.length;
  return (2 * precision * recall) / (precision + recall);
}
