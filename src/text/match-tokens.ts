/**
 * The token view of a normalised text that the gapped quote rule and the nearest-passage search
 * work on. Tokens are runs of letters, combining marks, digits and `_`, or single other
 * non-space characters (punctuation and symbols are tokens too, so `p < 0.05` and `p > 0.05` differ).
 * A digit that came from a non-ASCII original character (a superscript footnote marker such as `¹`,
 * which NFKD turns into `1`) is split off into its own `sup` token, so `model¹` is `model` + `1`.
 */
import type { NormalizedText } from './normalize.js';

/** Token kinds: a word, one symbol character, or digits that came from superscripts or other
 * compatibility forms (footnote markers). */
export const TokenKind = { Word: 0, Symbol: 1, Sup: 2 } as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export interface MatchTokens {
  /** Number of tokens. */
  readonly length: number;
  /** `[start, end)` of each token in the normalised text. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly kind: Uint8Array;
  /** The token strings. */
  readonly text: string[];
}

const TOKEN = /[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu;
const WORD_START = /^[\p{L}\p{M}\p{N}_]/u;

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Tokenises a normalised text for matching (see the module comment). */
export function matchTokens(normalized: NormalizedText): MatchTokens {
  const { text, offsets, original } = normalized;
  const starts: number[] = [];
  const ends: number[] = [];
  const kinds: number[] = [];
  const texts: string[] = [];
  const push = (s: number, e: number, k: TokenKind) => {
    starts.push(s);
    ends.push(e);
    kinds.push(k);
    texts.push(text.slice(s, e));
  };
  for (const m of text.matchAll(TOKEN)) {
    const s = m.index;
    const e = s + m[0].length;
    if (!WORD_START.test(m[0])) {
      push(s, e, TokenKind.Symbol);
      continue;
    }
    // Split off runs of digits whose original character was not an ASCII digit.
    let runStart = s;
    let i = s;
    while (i < e) {
      const sup = isAsciiDigit(text.charCodeAt(i)) && original.charCodeAt(offsets[i]!) >= 0x80;
      if (!sup) {
        i++;
        continue;
      }
      let j = i;
      while (j < e && isAsciiDigit(text.charCodeAt(j)) && original.charCodeAt(offsets[j]!) >= 0x80) j++;
      if (i > runStart) push(runStart, i, TokenKind.Word);
      push(i, j, TokenKind.Sup);
      runStart = j;
      i = j;
    }
    if (runStart < e) push(runStart, e, TokenKind.Word);
  }
  return {
    length: texts.length,
    start: Int32Array.from(starts),
    end: Int32Array.from(ends),
    kind: Uint8Array.from(kinds),
    text: texts,
  };
}

/** True when tokens `i` (a word ending in a letter), `i+1` (`-`, touching `i`) and `i+2` (a word
 * starting with a letter) look like one word split by a line-break hyphen. */
export function isHyphenSplit(tokens: MatchTokens, i: number): boolean {
  if (i + 2 >= tokens.length) return false;
  if (tokens.kind[i] !== TokenKind.Word || tokens.kind[i + 2] !== TokenKind.Word) return false;
  if (tokens.text[i + 1] !== '-' || tokens.end[i] !== tokens.start[i + 1]) return false;
  return /\p{L}$/u.test(tokens.text[i]!) && /^\p{L}/u.test(tokens.text[i + 2]!);
}
