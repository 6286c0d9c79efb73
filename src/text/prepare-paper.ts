/**
 * A paper prepared once for many quote look-ups: its normalised text (with offsets), the no-space
 * variant of METHODS §1.2 rule (c) with its own map back to the normalised text, exact-substring
 * indexes over both, and the token view (tokens, vocabulary ids, token → positions index and the
 * words split by line-break hyphens) that the gapped rule and the nearest-passage search use.
 *
 * The text forms (`MatchForms`: the normalised and no-space texts and the offset map) can be
 * computed once and stored with the paper (the corpus does at ingest); `preparePaper(text, { forms })`
 * then skips normalisation. The rest is built lazily, on first use.
 */
import { codesToString, type NormalizedText, normalizeText } from './normalize.js';
import { SubstringIndex } from './substring-index.js';
import {
  buildTokenIndex,
  type Span,
  type StoredTokens,
  storedTokens,
  type TokenIndex,
  tokenIndexFromStored,
  usableTokens,
} from './token-index.js';

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
  /** The stored part of the token index (the costliest part to build: ~1 ms for a paper). */
  readonly tokens: StoredTokens;
}

/**
 * The version of `MatchForms`. Bump it whenever `normalizeText`, `noSpaceForm` or the token index
 * (`matchTokens`, hyphen splits, line breaks) would give another result for some text: stored
 * forms of an older version are then recomputed. (A test pins the forms of a fixture to this
 * version, so a change that forgets the bump fails it.)
 */
export const MATCH_FORMS_VERSION = 1;

/** Computes the storable forms of a paper's text (normalisation, no-space form, token index). */
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
    tokens: storedTokens(buildTokenIndex(normalized)),
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
  if (normalized.length === 0)
    return jumps.length === 0 && noSpace.length === 0 && forms.tokens.ids.length === 0;
  // Jumps are ascending pairs inside both texts, the first at 0; the last offset is in the text.
  if (jumps.length < 2 || jumps.length % 2 !== 0 || jumps[0] !== 0) return false;
  const lastAt = jumps[jumps.length - 2]!;
  const lastOffset = jumps[jumps.length - 1]! + (normalized.length - 1 - lastAt);
  return (
    lastAt < normalized.length &&
    lastOffset < text.length &&
    noSpace.length <= normalized.length &&
    usableTokens(forms.tokens, normalized.length)
  );
}

export type { TokenIndex } from './token-index.js';

/** A paper normalised and indexed once; pass it to `matchQuote` for every quote. */
export interface PreparedPaper {
  /** The original text `T`; every span a match returns points into it. */
  readonly text: string;
  readonly normalized: NormalizedText;
  readonly noSpace: NoSpaceText;
  readonly normalizedIndex: SubstringIndex;
  readonly noSpaceIndex: SubstringIndex;
  readonly tokenIndex: TokenIndex;
  /** Whether `tokenIndex` has been built (it is built on first use). */
  readonly hasTokenIndex: boolean;
}

/** Options of `preparePaper`. */
export interface PrepareOptions {
  /** Forms computed from this text by `matchForms` (stored with the paper); used when usable. */
  forms?: MatchForms | null | undefined;
  /**
   * Spans of the text the gapped rule may skip between two quote words, beyond the marker shapes
   * it knows: the footnote and citation markers an ingester recorded (`Document.markers`).
   */
  skippable?: readonly Span[];
}

/**
 * Prepares a paper's text for quote matching: normalises it (linear time; ~0.25 ms for a 24,000-
 * character paper), unless `options.forms` computed from this text by `matchForms` are given and
 * of the current version. The substring indexes build their tables only for texts searched often (see
 * `SubstringIndex`), the offset maps and the token index on first use (the substring rules of
 * `researchqa` matching without a nearest passage never need the token index).
 */
export function preparePaper(text: string, options: PrepareOptions = {}): PreparedPaper {
  const { forms, skippable = [] } = options;
  let normalized: NormalizedText;
  let noSpaceText: string;
  let noSpaceToNormalized: Int32Array | undefined;
  let stored: StoredTokens | undefined;
  if (usable(forms, text)) {
    stored = forms.tokens;
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
      tokenIndex ??= stored
        ? tokenIndexFromStored(stored, normalized, skippable)
        : buildTokenIndex(normalized, skippable);
      return tokenIndex;
    },
    get hasTokenIndex(): boolean {
      return tokenIndex !== undefined;
    },
  };
}
