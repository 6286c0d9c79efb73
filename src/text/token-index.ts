/**
 * The token view of a prepared paper that the gapped rule and the nearest-passage search use:
 * tokens with vocabulary ids, a token → positions index, the words split by line-break hyphens,
 * and where the original text breaks lines. Built from the normalised text (`buildTokenIndex`),
 * or from its stored part (`StoredTokens`, kept with the paper's `MatchForms`), which skips the
 * tokenisation: only the postings and the hyphen joins are derived again. The tokens inside
 * recorded markers (`skippable`) depend on the document, not on its text, so they are never
 * stored: they are marked whenever an index is made.
 */
import { isHyphenSplit, type MatchTokens, matchTokensWithIds } from './match-tokens.js';
import { type NormalizedText, toOriginalSpan } from './normalize.js';

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

/** A `[start, end)` span of the original text. */
export type Span = { readonly start: number; readonly end: number };

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
  // The next line break at or after `from`; tokens only move forward, so it is searched for again
  // only once `from` has passed it (one scan of the text in all, not one per token).
  let nl = -2;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens.end[i] === tokens.start[i + 1]) continue; // touching tokens: no whitespace between
    const from = toOriginalSpan(normalized, tokens.start[i]!, tokens.end[i]!).end;
    const to = normalized.offsets[tokens.start[i + 1]!]!;
    if (nl !== -1 && nl < from) nl = original.indexOf('\n', from);
    if (nl >= 0 && nl < to) out[i] = 1;
  }
  return out;
}

/** The token index of a normalised text; `skip`: spans of the original text to mark skippable. */
export function buildTokenIndex(normalized: NormalizedText, skip: readonly Span[] = []): TokenIndex {
  const { tokens, ids, vocabulary } = matchTokensWithIds(normalized);
  const splitAt = new Uint8Array(tokens.length);
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens.text[i + 1] === '-' && isHyphenSplit(tokens, i)) splitAt[i] = 1;
  }
  const breakAfter = lineBreaksAfter(tokens, normalized);
  return indexOf(tokens, ids, vocabulary, splitAt, breakAfter, tokensInSpans(tokens, normalized, skip));
}

/** The index of tokenised text: vocabulary map, postings and hyphen joins, from ids and marks. */
function indexOf(
  tokens: MatchTokens,
  ids: Int32Array,
  words: readonly string[],
  splitAt: Uint8Array,
  breakAfter: Uint8Array,
  skippable: Uint8Array,
): TokenIndex {
  const vocabulary = new Map<string, number>();
  for (let id = 0; id < words.length; id++) vocabulary.set(words[id]!, id);
  const postingStart = new Int32Array(words.length + 1);
  for (let i = 0; i < ids.length; i++) postingStart[ids[i]! + 1]!++;
  for (let x = 1; x <= words.length; x++) postingStart[x]! += postingStart[x - 1]!;
  const fill = postingStart.slice(0, words.length);
  const positions = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) positions[fill[ids[i]!]!++] = i;
  const hyphenJoins = new Map<string, number[]>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (splitAt[i] !== 1) continue;
    const joined = tokens.text[i]! + tokens.text[i + 2]!;
    const list = hyphenJoins.get(joined);
    if (list) list.push(i);
    else hyphenJoins.set(joined, [i]);
  }
  return { tokens, ids, vocabulary, postingStart, positions, hyphenJoins, splitAt, breakAfter, skippable };
}

/** What a token index keeps in storage: the tokens, their ids and marks, and the vocabulary. */
export interface StoredTokens {
  /** The distinct token strings, by id. */
  readonly vocabulary: readonly string[];
  /** Per token: `[start, end)` in the normalised text, and its vocabulary id. */
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly ids: Int32Array;
  /** Per token: its kind, and the `splitAt` and `breakAfter` marks of `TokenIndex`. */
  readonly kind: Uint8Array;
  readonly splitAt: Uint8Array;
  readonly breakAfter: Uint8Array;
}

/** The stored part of a token index. */
export function storedTokens(index: TokenIndex): StoredTokens {
  const vocabulary: string[] = [];
  for (const [word, id] of index.vocabulary) vocabulary[id] = word;
  const { start, end, kind } = index.tokens;
  return {
    vocabulary,
    start,
    end,
    ids: index.ids,
    kind,
    splitAt: index.splitAt,
    breakAfter: index.breakAfter,
  };
}

/** Whether stored tokens are whole and fit a normalised text of this length. */
export function usableTokens(stored: StoredTokens, textLength: number): boolean {
  const n = stored.ids.length;
  if (
    [stored.start, stored.end, stored.kind, stored.splitAt, stored.breakAfter].some((a) => a.length !== n)
  ) {
    return false;
  }
  for (let i = 0; i < n; i++) {
    if (stored.ids[i]! >= stored.vocabulary.length || stored.ids[i]! < 0) return false;
  }
  return n === 0 || stored.end[n - 1]! <= textLength;
}

/**
 * A token index from its stored part: the tokens are given, so the normalised text is used only
 * to map tokens back to the original text when some spans are to be marked skippable.
 */
export function tokenIndexFromStored(
  stored: StoredTokens,
  normalized: NormalizedText,
  skip: readonly Span[] = [],
): TokenIndex {
  const n = stored.ids.length;
  const text = new Array<string>(n);
  for (let i = 0; i < n; i++) text[i] = stored.vocabulary[stored.ids[i]!]!;
  const tokens: MatchTokens = { length: n, start: stored.start, end: stored.end, kind: stored.kind, text };
  const skippable = tokensInSpans(tokens, normalized, skip);
  return indexOf(tokens, stored.ids, stored.vocabulary, stored.splitAt, stored.breakAfter, skippable);
}
