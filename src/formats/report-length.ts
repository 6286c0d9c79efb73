/**
 * Report length as rag-run-validator measures it (hltcoe/rag-run-validator
 * `rag_run_validator/__init__.py` @ 09b8190b, `validate_length`): the response texts joined with
 * one space, then `len(unicodedata.normalize('NFKC', text))` code points, or `len(text.split())`
 * words (Python's whitespace split).
 */
export type LengthMode = 'characters' | 'words';

/** Python `str.split()` whitespace (`str.isspace`), which differs from JavaScript's `\s`. */
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** `len(text.split())` in Python. */
export function pythonWordCount(text: string): number {
  return text.split(PY_WHITESPACE).filter((w) => w !== '').length;
}

/** `len(unicodedata.normalize('NFKC', text))`: code points, not UTF-16 units. */
export function nfkcLength(text: string): number {
  let n = 0;
  for (const _ of text.normalize('NFKC')) n++;
  return n;
}

/** Python `len(s)`: the number of code points (UTF-16 units minus the second half of each pair). */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The length of a report of these sentence texts, as the validator counts it. */
export function reportLength(texts: readonly string[], mode: LengthMode): number {
  const joined = texts.join(' ');
  return mode === 'words' ? pythonWordCount(joined) : nfkcLength(joined);
}

/**
 * How many leading sentences fit within `limit` (measured as `reportLength` of those sentences):
 * a report over the limit is cut at the last whole sentence that fits; the sentence that crosses
 * the limit and all after it are left out (never cut mid-sentence).
 */
export function sentencesWithinLimit(texts: readonly string[], limit: number, mode: LengthMode): number {
  let length = 0;
  for (let i = 0; i < texts.length; i++) {
    const piece = mode === 'words' ? pythonWordCount(texts[i]!) : nfkcLength(texts[i]!);
    // Joined with one space: a space is one character (and no word) between sentences.
    const next = length + piece + (i > 0 && mode === 'characters' ? 1 : 0);
    if (next > limit) return i;
    length = next;
  }
  return texts.length;
}
