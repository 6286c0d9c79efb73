/**
 * A Unicode-aware word tokenizer. By default it behaves like Python's
 * `re.findall(r'\w+', text.lower())` on `str`: a token is a run of letters (any script), numbers
 * (including `²`, `½`, Roman numerals) and `_`; combining marks are NOT word characters (Python's
 * `\w` excludes them), so a decomposed "cafe\u0301" yields "cafe".
 */

/** Python 3 `\w` for `str` patterns: alphanumeric (letters L*, numbers N*) or underscore. */
export const WORD_PATTERN = /[\p{L}\p{N}_]+/gu;

export interface TokenizeOptions {
  /** Lowercase before matching (default true). */
  readonly lowercase?: boolean;
  /** What a token is (default `WORD_PATTERN`); a global flag is added if missing. */
  readonly pattern?: RegExp;
}

/** A token and its `[start, end)` span in the text that was tokenised. */
export interface Token {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

function globalPattern(pattern: RegExp | undefined): RegExp {
  if (pattern === undefined) return WORD_PATTERN;
  return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

/** Word tokens of `text` (lowercased by default), in order. */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const source = (options.lowercase ?? true) ? text.toLowerCase() : text;
  return source.match(globalPattern(options.pattern)) ?? [];
}

/**
 * Word tokens with their spans in the ORIGINAL `text`. When lowercasing changes the text's length
 * (rare: e.g. `İ` becomes two characters), tokens are found in the original text and lowercased
 * one by one, so offsets stay exact.
 */
export function tokenizeWithOffsets(text: string, options: TokenizeOptions = {}): Token[] {
  const lowercase = options.lowercase ?? true;
  const lower = lowercase ? text.toLowerCase() : text;
  const sameLength = lower.length === text.length;
  const source = sameLength ? lower : text;
  const tokens: Token[] = [];
  for (const m of source.matchAll(globalPattern(options.pattern))) {
    if (m[0].length === 0) continue;
    const token = sameLength || !lowercase ? m[0] : m[0].toLowerCase();
    tokens.push({ text: token, start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}
