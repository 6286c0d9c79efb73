/**
 * A paper prepared once for many quote look-ups: its normalised text (with offsets), the no-space
 * variant of METHODS §1.2 rule (c) with its own map back to the normalised text, exact-substring
 * indexes over both, and the token view (tokens, vocabulary ids, token → positions index and the
 * words split by line-break hyphens) that the gapped rule and the nearest-passage search use.
 *
 * The text forms (`MatchForms`: the normalised and no-space texts and the offset map) can be
 * computed once and stored with the paper (the corpus does at ingest); `preparePaper(text, forms)`
 * then skips normalisation. The rest is built lazily, on first use.
 */
import { isHyphenSplit, type MatchTokens, matchTokens } from './match-tokens.js';
import { codesToString, type NormalizedText, normalizeText, toOriginalSpan } from './normalize.js';
import { SubstringIndex } from './substring-index.js';

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

/** The offset map of a no-space text, rebuilt from the normalised text it was made from. */
function noSpaceMap(normalized: string, length: number): Int32Array {
  const map = new Int32Array(length);
  let n = 0;
  for (let i = 0; i < normalized.length && n < length; i++) {
    const c = normalized.charCodeAt(i);
    if (c === 0x2d && normalized.charCodeAt(i + 1) === 0x20) {
      i++;
      continue;
    }
    if (c !== 0x20) map[n++] = i;
  }
  return map;
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

function buildTokenIndex(tokens: MatchTokens, normalized: NormalizedText): TokenIndex {
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
  return { tokens, ids, vocabulary, postingStart, positions, hyphenJoins, splitAt, breakAfter };
}

/**
 * The storable part of a prepared paper: its normalised text, its no-space form, and the offset
 * map back to the original text as jumps (`normalizeText(text).offsets` is rebuilt from them).
 * `version` is `MATCH_FORMS_VERSION` when they were computed; forms of another version are
 * ignored (computed again), so a change to the normaliser never meets forms made by the old one.
 */
export interface MatchForms {
  readonly version: number;
  readonly normalized: string;
  readonly noSpace: string;
  /**
   * Pairs (i, offsets[i]) for i = 0 and every i where offsets[i] ≠ offsets[i − 1] + 1 (a collapsed
   * whitespace run, an expansion such as ﬁ → "fi"); in between, offsets count up by one.
   */
  readonly jumps: Int32Array;
}

/**
 * The version of `MatchForms`. Bump it whenever `normalizeText` or `noSpaceForm` would give another
 * result for some text: stored forms of an older version are then recomputed. (A test pins the
 * forms of a fixture to this version, so a change that forgets the bump fails it.)
 */
export const MATCH_FORMS_VERSION = 1;

/** Computes the storable forms of a paper's text (normalisation and the no-space form). */
export function matchForms(text: string): MatchForms {
  const normalized = normalizeText(text);
  const { offsets } = normalized;
  const jumps: number[] = [];
  for (let i = 0; i < offsets.length; i++) {
    if (i === 0 || offsets[i] !== offsets[i - 1]! + 1) jumps.push(i, offsets[i]!);
  }
  return {
    version: MATCH_FORMS_VERSION,
    normalized: normalized.text,
    noSpace: noSpaceForm(normalized.text).text,
    jumps: Int32Array.from(jumps),
  };
}

/** The offsets of the normalised text, from its jumps. */
function offsetsFromJumps(jumps: Int32Array, length: number): Int32Array {
  const offsets = new Int32Array(length);
  for (let j = 0; j < jumps.length; j += 2) {
    const end = j + 2 < jumps.length ? jumps[j + 2]! : length;
    for (let i = jumps[j]!, at = jumps[j + 1]!; i < end; i++) offsets[i] = at++;
  }
  return offsets;
}

/** Whether stored forms can stand for `text`'s: this version, and consistent with the text. */
function usable(forms: MatchForms | null | undefined, text: string): forms is MatchForms {
  if (!forms || forms.version !== MATCH_FORMS_VERSION) return false;
  const { jumps, normalized, noSpace } = forms;
  if (normalized.length === 0) return jumps.length === 0 && noSpace.length === 0;
  // Jumps are ascending pairs inside both texts, the first at 0; the last offset is in the text.
  if (jumps.length < 2 || jumps.length % 2 !== 0 || jumps[0] !== 0) return false;
  const lastAt = jumps[jumps.length - 2]!;
  const lastOffset = jumps[jumps.length - 1]! + (normalized.length - 1 - lastAt);
  return lastAt < normalized.length && lastOffset < text.length && noSpace.length <= normalized.length;
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

/**
 * Prepares a paper's text for quote matching: normalises it (linear time; ~0.25 ms for a 24,000-
 * character paper), unless `forms` computed from this text by `matchForms` are given and of the
 * current version. The substring indexes build their tables only for texts searched often (see
 * `SubstringIndex`), the offset maps and the token index on first use (the substring rules of
 * `researchqa` matching without a nearest passage never need the token index).
 */
export function preparePaper(text: string, forms?: MatchForms | null): PreparedPaper {
  let normalized: NormalizedText;
  let noSpaceText: string;
  let noSpaceToNormalized: Int32Array | undefined;
  if (usable(forms, text)) {
    let offsets: Int32Array | undefined;
    const { jumps } = forms;
    const length = forms.normalized.length;
    normalized = {
      text: forms.normalized,
      get offsets(): Int32Array {
        offsets ??= offsetsFromJumps(jumps, length);
        return offsets;
      },
      original: text,
    };
    noSpaceText = forms.noSpace;
  } else {
    normalized = normalizeText(text);
    const form = noSpaceForm(normalized.text);
    noSpaceText = form.text;
    noSpaceToNormalized = form.toNormalized;
  }
  const noSpace: NoSpaceText = {
    text: noSpaceText,
    get toNormalized(): Int32Array {
      noSpaceToNormalized ??= noSpaceMap(normalized.text, noSpaceText.length);
      return noSpaceToNormalized;
    },
  };
  let tokenIndex: TokenIndex | undefined;
  return {
    text,
    normalized,
    noSpace,
    normalizedIndex: new SubstringIndex(normalized.text),
    noSpaceIndex: new SubstringIndex(noSpaceText),
    get tokenIndex(): TokenIndex {
      tokenIndex ??= buildTokenIndex(matchTokens(normalized), normalized);
      return tokenIndex;
    },
  };
}
