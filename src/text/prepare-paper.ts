/**
 * A paper prepared once for many quote look-ups: its normalised text (with offsets), the no-space
 * variant of METHODS §1.2 rule (c) with its own map back to the normalised text, exact-substring
 * indexes over both, and the token view (tokens, vocabulary ids, token → positions index and the
 * words split by line-break hyphens) that the gapped rule and the nearest-passage search use.
 */
import { isHyphenSplit, type MatchTokens, matchTokens } from './match-tokens.js';
import { codesToString, type NormalizedText, normalizeText, toOriginalSpan } from './normalize.js';
import { SubstringIndex } from './substring-index.js';

/** A `[start, end)` span of the original text. */
type Span = { readonly start: number; readonly end: number };

/** The no-space form of rule (c): drop `-` + whitespace (line-break hyphens), then all whitespace. */
export interface NoSpaceText {
  readonly text: string;
  /** `toNormalized[i]` = index in the normalised text of `text[i]`. */
  readonly toNormalized: Int32Array;
}

/** Builds the no-space form of a normalised text (whitespace there is already single spaces). */
export function noSpaceForm(normalized: string): NoSpaceText {
  const map = new Int32Array(normalized.length);
  const codes = new Uint16Array(normalized.length);
  let n = 0;
  for (let i = 0; i < normalized.length; i++) {
    const c = normalized.charCodeAt(i);
    if (c === 0x2d && normalized.charCodeAt(i + 1) === 0x20) {
      i++; // skip "-" and the single space after it
      continue;
    }
    if (c === 0x20) continue;
    codes[n] = c;
    map[n++] = i;
  }
  return { text: codesToString(codes, n), toNormalized: map.slice(0, n) };
}

/** The no-space form of a normalised quote, without the offset map (`noSpaceForm(q).text`). */
export function noSpaceString(normalized: string): string {
  return normalized.replace(/- /g, '').replace(/ /g, '');
}

/** Token ids and the token → positions index of a paper. */
export interface TokenIndex {
  readonly tokens: MatchTokens;
  /** Vocabulary id of each token. */
  readonly ids: Int32Array;
  readonly vocabulary: ReadonlyMap<string, number>;
  /** Positions of vocabulary id `x`: `positions[postingStart[x] .. postingStart[x+1])`, ascending. */
  readonly postingStart: Int32Array;
  readonly positions: Int32Array;
  /** Words split by a line-break hyphen ("sci-ence"), joined ("science") → first token positions. */
  readonly hyphenJoins: ReadonlyMap<string, number[]>;
  /** `splitAt[i]` = 1 when tokens i, i+1, i+2 are a word split by a hyphen (`isHyphenSplit`). */
  readonly splitAt: Uint8Array;
  /** `breakAfter[i]` = 1 when the original text between tokens i and i+1 holds a line break. */
  readonly breakAfter: Uint8Array;
  /** `skippable[i]` = 1 when token i lies inside a span given as skippable (a recorded marker). */
  readonly skippable: Uint8Array;
}

/** Marks the tokens that lie wholly inside one of `spans` (offsets into the original text). */
function tokensInSpans(tokens: MatchTokens, normalized: NormalizedText, spans: readonly Span[]): Uint8Array {
  const out = new Uint8Array(tokens.length);
  if (spans.length === 0) return out;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let k = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = toOriginalSpan(normalized, tokens.start[i]!, tokens.end[i]!);
    while (k < sorted.length && sorted[k]!.end <= t.start) k++;
    const s = sorted[k];
    if (s && s.start <= t.start && t.end <= s.end) out[i] = 1;
  }
  return out;
}

/** Marks the tokens followed by a line break in the original text (before the next token). */
function lineBreaksAfter(tokens: MatchTokens, normalized: NormalizedText): Uint8Array {
  const out = new Uint8Array(tokens.length);
  const { original } = normalized;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens.end[i] === tokens.start[i + 1]) continue; // touching tokens: no whitespace between
    const from = toOriginalSpan(normalized, tokens.start[i]!, tokens.end[i]!).end;
    const to = normalized.offsets[tokens.start[i + 1]!]!;
    const nl = original.indexOf('\n', from);
    if (nl >= 0 && nl < to) out[i] = 1;
  }
  return out;
}

function buildTokenIndex(tokens: MatchTokens, normalized: NormalizedText, skip: readonly Span[]): TokenIndex {
  const vocabulary = new Map<string, number>();
  const ids = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens.text[i]!;
    let id = vocabulary.get(t);
    if (id === undefined) {
      id = vocabulary.size;
      vocabulary.set(t, id);
    }
    ids[i] = id;
  }
  const postingStart = new Int32Array(vocabulary.size + 1);
  for (let i = 0; i < ids.length; i++) postingStart[ids[i]! + 1]!++;
  for (let x = 1; x <= vocabulary.size; x++) postingStart[x]! += postingStart[x - 1]!;
  const fill = postingStart.slice(0, vocabulary.size);
  const positions = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) positions[fill[ids[i]!]!++] = i;
  const hyphenJoins = new Map<string, number[]>();
  const splitAt = new Uint8Array(tokens.length);
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens.text[i + 1] !== '-' || !isHyphenSplit(tokens, i)) continue;
    splitAt[i] = 1;
    const joined = tokens.text[i]! + tokens.text[i + 2]!;
    const list = hyphenJoins.get(joined);
    if (list) list.push(i);
    else hyphenJoins.set(joined, [i]);
  }
  const breakAfter = lineBreaksAfter(tokens, normalized);
  const skippable = tokensInSpans(tokens, normalized, skip);
  return { tokens, ids, vocabulary, postingStart, positions, hyphenJoins, splitAt, breakAfter, skippable };
}

/** A paper normalised and indexed once; pass it to `matchQuote` for every quote. */
export interface PreparedPaper {
  /** The original text `T`; every span a match returns points into it. */
  readonly text: string;
  readonly normalized: NormalizedText;
  readonly noSpace: NoSpaceText;
  readonly normalizedIndex: SubstringIndex;
  readonly noSpaceIndex: SubstringIndex;
  readonly tokenIndex: TokenIndex;
}

/** Options of `preparePaper`. */
export interface PrepareOptions {
  /**
   * Spans of the text the gapped rule may skip between two quote words, beyond the marker shapes
   * it knows: the footnote and citation markers an ingester recorded (`Document.markers`).
   */
  skippable?: readonly Span[];
}

/**
 * Normalises and indexes a paper's text for quote matching (linear time; ~tens of ms for 60 pages).
 * The token index is built on first use: the substring rules (all `researchqa` matching without a
 * nearest passage) never need it.
 */
export function preparePaper(text: string, options: PrepareOptions = {}): PreparedPaper {
  const normalized = normalizeText(text);
  const noSpace = noSpaceForm(normalized.text);
  let tokenIndex: TokenIndex | undefined;
  return {
    text,
    normalized,
    noSpace,
    normalizedIndex: new SubstringIndex(normalized.text),
    noSpaceIndex: new SubstringIndex(noSpace.text),
    get tokenIndex(): TokenIndex {
      tokenIndex ??= buildTokenIndex(matchTokens(normalized), normalized, options.skippable ?? []);
      return tokenIndex;
    },
  };
}
