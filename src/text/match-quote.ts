/**
 * The quote matcher (METHODS §1.2). Both sides are normalised (`normalizeText`; the quote also gets
 * rule 4 edge stripping), then, in order:
 *
 * - (a) `exact`: the normalised quote is a substring of the normalised paper.
 * - (b) `prefix` (researchqa only): the first 80 characters of the normalised quote are a substring;
 *   only for quotes of at least 20 normalised characters.
 * - (c) `no-space`: with line-break hyphens (`-` + whitespace) and then all whitespace removed from
 *   both, the quote is a substring; only when that no-space quote has at least 20 characters.
 * - (d) `no-space-prefix` (researchqa only): the first 120 characters of the no-space quote (which
 *   has at least 20) are a substring of the no-space paper.
 * - `gapped` (strict only): the quote's token sequence appears in order with only PDF-furniture
 *   insertions between tokens (see `gapped-match.ts` and `gap-rules.ts`).
 * - otherwise `none`, with the nearest passage and its similarity (unless `nearest: false`).
 *
 * researchqa accepts (a)–(d); strict accepts (a), (c) and `gapped`. An empty quote never matches.
 * Spans are `[start, end)` in the paper's ORIGINAL text; a substring rule returns the first
 * occurrence; a prefix rule returns the span of the matched prefix; `gapped` returns one span per
 * run of contiguous matched tokens (insertions excluded).
 */

import type { Span } from '../core/index.js';
import { findGappedMatch } from './gapped-match.js';
import { type MatchTokens, matchTokens, TokenKind } from './match-tokens.js';
import { type NearestPassage, nearestPassage } from './nearest-passage.js';
import { normalizeQuote, toOriginalSpan } from './normalize.js';
import { noSpaceString, type PreparedPaper, preparePaper } from './prepare-paper.js';

export type MatchMode = 'researchqa' | 'strict';
export type MatchRule = 'exact' | 'prefix' | 'no-space' | 'no-space-prefix' | 'gapped' | 'none';

export interface MatchOptions {
  /** `researchqa` (default): rules (a)–(d); `strict`: (a), (c) and `gapped`. */
  readonly mode?: MatchMode;
  /** Compute the nearest passage and similarity on a miss (default true). */
  readonly nearest?: boolean;
}

export interface QuoteMatch {
  readonly matched: boolean;
  readonly rule: MatchRule;
  /** Matched span(s) in the paper's original text; empty on a miss. */
  readonly spans: Span[];
  /** On a miss: similarity in [0, 1] of the quote to the nearest passage (0 if there is none). */
  readonly similarity?: number;
  /** On a miss: the nearest passage (span in the original text and its text). */
  readonly nearest?: { readonly start: number; readonly end: number; readonly text: string };
}

const PREFIX_CHARS = 80;
const NO_SPACE_PREFIX_CHARS = 120;
const MIN_CHARS = 20;

function found(rule: MatchRule, spans: Span[]): QuoteMatch {
  return { matched: true, rule, spans };
}

function normalizedSpan(paper: PreparedPaper, start: number, length: number): Span {
  return toOriginalSpan(paper.normalized, start, start + length);
}

function noSpaceSpan(paper: PreparedPaper, start: number, length: number): Span {
  const map = paper.noSpace.toNormalized;
  return toOriginalSpan(paper.normalized, map[start]!, map[start + length - 1]! + 1);
}

function tryRules(paper: PreparedPaper, quote: string, strict: boolean): QuoteMatch | undefined {
  const exact = paper.normalizedIndex.indexOf(quote);
  if (exact >= 0) return found('exact', [normalizedSpan(paper, exact, quote.length)]);
  if (!strict && quote.length >= MIN_CHARS) {
    const prefix = quote.slice(0, PREFIX_CHARS);
    const at = paper.normalizedIndex.indexOf(prefix);
    if (at >= 0) return found('prefix', [normalizedSpan(paper, at, prefix.length)]);
  }
  const noSpace = noSpaceString(quote);
  if (noSpace.length >= MIN_CHARS) {
    const at = paper.noSpaceIndex.indexOf(noSpace);
    if (at >= 0) return found('no-space', [noSpaceSpan(paper, at, noSpace.length)]);
    if (!strict) {
      const prefix = noSpace.slice(0, NO_SPACE_PREFIX_CHARS);
      const pat = paper.noSpaceIndex.indexOf(prefix);
      if (pat >= 0) return found('no-space-prefix', [noSpaceSpan(paper, pat, prefix.length)]);
    }
  }
  return undefined;
}

/**
 * A cheap necessary condition for the `gapped` rule, checked until the paper's token index is
 * built (building it costs two to three times as much as preparing the paper; once it exists, its
 * vocabulary rules out such quotes at once, see `findGappedMatch`): every word of the quote must
 * equal a paper token, or a paper word split by a hyphen ("sci-ence", "sci- ence"), or be part of a
 * paper word that the quote splits. Each of these puts the word (which holds no space or hyphen)
 * into the paper's normalised text once every space and hyphen is removed from it, so that is the
 * test: a quote with a word the paper never has (a changed number, a fabricated term) cannot
 * match. Each distinct word is looked for once per paper.
 */
function mayMatchGapped(paper: PreparedPaper, quote: MatchTokens): boolean {
  if (paper.hasTokenIndex) return true;
  let filter = gappedFilters.get(paper);
  if (!filter) {
    filter = { loose: paper.noSpace.text.replace(/-/g, ''), words: new Map() };
    gappedFilters.set(paper, filter);
  }
  for (let i = 0; i < quote.length; i++) {
    if (quote.kind[i] !== TokenKind.Word) continue;
    const word = quote.text[i]!;
    let ok = filter.words.get(word);
    if (ok === undefined) {
      ok = filter.loose.indexOf(word) >= 0;
      filter.words.set(word, ok);
    }
    if (!ok) return false;
  }
  return true;
}

/**
 * Per paper, its normalised text without spaces and hyphens (the no-space form, whose remaining
 * hyphens are removed too) and the quote words already looked for in it. Words are short and
 * mostly found early, so a plain scan beats building a `SubstringIndex` for them.
 */
const gappedFilters = new WeakMap<PreparedPaper, { loose: string; words: Map<string, boolean> }>();

/** The `gapped` rule for a normalised quote that no substring rule accepted (undefined: no match). */
function gappedRule(paper: PreparedPaper, quoteTokens: MatchTokens): QuoteMatch | undefined {
  if (!mayMatchGapped(paper, quoteTokens)) return undefined;
  const { tokenIndex } = paper;
  const ctx = {
    tokens: tokenIndex.tokens,
    normalized: paper.normalized,
    breakAfter: tokenIndex.breakAfter,
    skippable: tokenIndex.skippable,
  };
  const runs = findGappedMatch(tokenIndex, ctx, quoteTokens);
  if (!runs) return undefined;
  const { start, end } = tokenIndex.tokens;
  return found(
    'gapped',
    runs.map(([a, b]) => toOriginalSpan(paper.normalized, start[a]!, end[b - 1]!)),
  );
}

/** A miss without the nearest passage (a new object each time: callers may keep or change it). */
function noMatch(): QuoteMatch {
  return { matched: false, rule: 'none', spans: [] };
}

/** A miss with the nearest passage, or with similarity 0 when there is none. */
function missNear(near: NearestPassage | null | undefined): QuoteMatch {
  if (!near) return { matched: false, rule: 'none', spans: [], similarity: 0 };
  return {
    matched: false,
    rule: 'none',
    spans: [],
    similarity: near.similarity,
    nearest: { start: near.start, end: near.end, text: near.text },
  };
}

/**
 * Matches one quote against a paper (a `PreparedPaper` from `preparePaper`, or raw text, which is
 * then prepared for this call only: prepare once when matching many quotes).
 */
export function matchQuote(
  paper: PreparedPaper | string,
  quote: string,
  options: MatchOptions = {},
): QuoteMatch {
  const prepared = typeof paper === 'string' ? preparePaper(paper) : paper;
  const strict = (options.mode ?? 'researchqa') === 'strict';
  const normalized = normalizeQuote(quote);
  if (normalized.text.length === 0) return missNear(null);
  const byText = tryRules(prepared, normalized.text, strict);
  if (byText) return byText;
  if (!strict && options.nearest === false) return noMatch();
  const quoteTokens = matchTokens(normalized);
  const gapped = strict ? gappedRule(prepared, quoteTokens) : undefined;
  if (gapped) return gapped;
  if (options.nearest === false) return noMatch();
  return missNear(nearestPassage(prepared, normalized.text, quoteTokens));
}

/**
 * One quote in both modes at once, without the nearest passage: what a grader reporting the
 * published accuracy and the strict one side by side needs. Equal to `matchQuote` in each mode
 * with `nearest: false`, but the quote is normalised and looked up once: the strict rules exact and
 * no-space are researchqa's, so the strict matcher only goes on where researchqa's answer leaves
 * them open (a `prefix` match, which comes before no-space) and then tries `gapped`.
 */
export function matchQuoteModes(paper: PreparedPaper, quote: string): Record<MatchMode, QuoteMatch> {
  const normalized = normalizeQuote(quote);
  if (normalized.text.length === 0) {
    const empty = (): QuoteMatch => missNear(null);
    return { researchqa: empty(), strict: empty() };
  }
  const researchqa = tryRules(paper, normalized.text, false) ?? noMatch();
  if (researchqa.rule === 'exact' || researchqa.rule === 'no-space')
    return { researchqa, strict: researchqa };
  const strict =
    (researchqa.rule === 'prefix' ? tryRules(paper, normalized.text, true) : undefined) ??
    gappedRule(paper, matchTokens(normalized)) ??
    noMatch();
  return { researchqa, strict };
}

/**
 * Whether any of `quotes` (alternatives, each enough on its own) matches, with the nearest passage
 * on a miss. Matched or not is what `matchQuote` on each quote in turn decides, found cheaper: the
 * substring rules run on every quote before the token rule (`gapped`) on any, and the nearest
 * passage, the costliest step, only once none matched (on a miss it is that of the quote with the
 * highest similarity, the earliest on ties, as the best of `matchQuote`'s answers is). A match is
 * the first by rule order, then by quote order.
 */
export function matchAnyQuote(
  paper: PreparedPaper,
  quotes: readonly string[],
  options: MatchOptions = {},
): QuoteMatch {
  const strict = (options.mode ?? 'researchqa') === 'strict';
  const normalized = quotes.map(normalizeQuote).filter((n) => n.text.length > 0);
  for (const n of normalized) {
    const byText = tryRules(paper, n.text, strict);
    if (byText) return byText;
  }
  const wantNearest = options.nearest !== false;
  const tokens = strict || wantNearest ? normalized.map((n) => matchTokens(n)) : [];
  if (strict) {
    for (const t of tokens) {
      const gapped = gappedRule(paper, t);
      if (gapped) return gapped;
    }
  }
  if (!wantNearest) return missNear(null);
  let best: NearestPassage | undefined;
  for (const [i, n] of normalized.entries()) {
    const near = nearestPassage(paper, n.text, tokens[i]!);
    if (near && (best === undefined || near.similarity > best.similarity)) best = near;
  }
  return missNear(best);
}
