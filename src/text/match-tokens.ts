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

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const SPACE_CHAR = /\s/;

/** 0 = space, 1 = word character, 2 = other (a one-character symbol token). */
function charClass(code: number): number {
  if (code < 0x80) {
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 0;
    if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a))
      return 1;
    return code === 0x5f ? 1 : 2;
  }
  const ch = String.fromCharCode(code);
  if (code >= 0xd800 && code <= 0xdfff) return 2;
  if (WORD_CHAR.test(ch)) return 1;
  return SPACE_CHAR.test(ch) ? 0 : 2;
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** True when normalised char i is a digit that came from a non-ASCII original (e.g. `¹`). */
function isSupDigit(text: string, normalized: NormalizedText, i: number): boolean {
  // The digit test first: only digits need the offset map (built on first use).
  return isAsciiDigit(text.charCodeAt(i)) && normalized.original.charCodeAt(normalized.offsets[i]!) >= 0x80;
}

/** Calls `emit(start, end, kind)` for every token of a normalised text, in order. */
function scanTokens(normalized: NormalizedText, emit: (s: number, e: number, k: TokenKind) => void): void {
  const { text } = normalized;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const cls = charClass(code);
    if (cls === 0) {
      i++;
      continue;
    }
    if (cls === 2) {
      // Astral symbols (surrogate pairs) stay one token.
      const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      emit(i, i + width, TokenKind.Symbol);
      i += width;
      continue;
    }
    const s = i;
    let digits = false;
    for (let c = code; i < text.length && charClass(c) === 1; c = text.charCodeAt(++i)) {
      if (isAsciiDigit(c)) digits = true;
    }
    if (!digits) {
      emit(s, i, TokenKind.Word);
      continue;
    }
    // Split off runs of digits whose original character was not an ASCII digit.
    let runStart = s;
    for (let j = s; j < i; ) {
      if (!isSupDigit(text, normalized, j)) {
        j++;
        continue;
      }
      let k = j;
      while (k < i && isSupDigit(text, normalized, k)) k++;
      if (j > runStart) emit(runStart, j, TokenKind.Word);
      emit(j, k, TokenKind.Sup);
      runStart = k;
      j = k;
    }
    if (runStart < i) emit(runStart, i, TokenKind.Word);
  }
}

/** Growable token arrays (at most one token per character, so sized by the text). */
function tokenArrays(length: number) {
  return {
    start: new Int32Array(length),
    end: new Int32Array(length),
    kind: new Uint8Array(length),
    text: [] as string[],
  };
}

/** Tokenises a normalised text for matching (see the module comment). */
export function matchTokens(normalized: NormalizedText): MatchTokens {
  const { text } = normalized;
  const out = tokenArrays(text.length);
  scanTokens(normalized, (s, e, k) => {
    const n = out.text.length;
    out.start[n] = s;
    out.end[n] = e;
    out.kind[n] = k;
    out.text.push(text.slice(s, e));
  });
  return finish(out);
}

function finish(out: ReturnType<typeof tokenArrays>): MatchTokens {
  const n = out.text.length;
  return {
    length: n,
    start: out.start.slice(0, n),
    end: out.end.slice(0, n),
    kind: out.kind.slice(0, n),
    text: out.text,
  };
}

/** A paper's tokens with a vocabulary id per token (ids in order of first occurrence). */
export interface IdentifiedTokens {
  tokens: MatchTokens;
  ids: Int32Array;
  /** The distinct token strings, by id. */
  vocabulary: string[];
}

/**
 * `matchTokens` for a long text, with each token's vocabulary id. Equal tokens share one string:
 * a token is looked up in an open-addressing table by a hash of its characters and compared in
 * place, so only the first occurrence of each distinct token allocates (a paper has ~4,600 tokens
 * but ~1,500 distinct ones; slicing each token was most of the cost of its token index).
 */
export function matchTokensWithIds(normalized: NormalizedText): IdentifiedTokens {
  const { text } = normalized;
  const out = tokenArrays(text.length);
  const ids = new Int32Array(text.length);
  const vocabulary: string[] = [];
  const hashes: number[] = [];
  let mask = 1023;
  let table = new Int32Array(mask + 1).fill(-1);
  const place = (id: number) => {
    let slot = hashes[id]! & mask;
    while (table[slot]! >= 0) slot = (slot + 1) & mask;
    table[slot] = id;
  };
  scanTokens(normalized, (s, e, k) => {
    let h = 0x811c9dc5;
    for (let i = s; i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    let slot = h & mask;
    let id = table[slot]!;
    while (id >= 0) {
      const known = vocabulary[id]!;
      if (hashes[id] === h && known.length === e - s && text.startsWith(known, s)) break;
      slot = (slot + 1) & mask;
      id = table[slot]!;
    }
    if (id < 0) {
      id = vocabulary.length;
      vocabulary.push(text.slice(s, e));
      hashes.push(h);
      table[slot] = id;
      if (vocabulary.length * 2 > mask) {
        mask = mask * 2 + 1;
        table = new Int32Array(mask + 1).fill(-1);
        for (let v = 0; v < vocabulary.length; v++) place(v);
      }
    }
    const n = out.text.length;
    out.start[n] = s;
    out.end[n] = e;
    out.kind[n] = k;
    out.text.push(vocabulary[id]!);
    ids[n] = id;
  });
  return { tokens: finish(out), ids: ids.slice(0, out.text.length), vocabulary };
}

/** True when tokens `i` (a word ending in a letter), `i+1` (`-`, touching `i`) and `i+2` (a word
 * starting with a letter) look like one word split by a line-break hyphen. */
export function isHyphenSplit(tokens: MatchTokens, i: number): boolean {
  if (i + 2 >= tokens.length) return false;
  if (tokens.kind[i] !== TokenKind.Word || tokens.kind[i + 2] !== TokenKind.Word) return false;
  if (tokens.text[i + 1] !== '-' || tokens.end[i] !== tokens.start[i + 1]) return false;
  return /\p{L}$/u.test(tokens.text[i]!) && /^\p{L}/u.test(tokens.text[i + 2]!);
}
