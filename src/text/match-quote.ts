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
import { nearestPassage } from './nearest-passage.js';
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
 * A cheap necessary condition for the `gapped` rule, checked before the paper's token index is
 * built (building it costs about as much as preparing the paper): every word of the quote must
 * equal a paper token, or a paper word split by a hyphen ("sci-ence", "sci- ence"), or be part of a
 * paper word that the quote splits, so it occurs in the normalised paper text, in its no-space
 * form (line-break hyphens removed), or as such a split. A quote with a word the paper never has
 * (a changed number, a fabricated term) cannot match.
 */
function mayMatchGapped(paper: PreparedPaper, quote: MatchTokens): boolean {
  for (let i = 0; i < quote.length; i++) {
    if (quote.kind[i] !== TokenKind.Word) continue;
    const word = quote.text[i]!;
    if (paper.normalizedIndex.indexOf(word) >= 0 || paper.noSpaceIndex.indexOf(word) >= 0) continue;
    let split = false;
    for (let k = 1; k < word.length && !split; k++) {
      const [a, b] = [word.slice(0, k), word.slice(k)];
      split =
        paper.normalizedIndex.indexOf(`${a}-${b}`) >= 0 || paper.normalizedIndex.indexOf(`${a}- ${b}`) >= 0;
    }
    if (!split) return false;
  }
  return true;
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
  if (normalized.text.length === 0) return { matched: false, rule: 'none', spans: [], similarity: 0 };
  const byText = tryRules(prepared, normalized.text, strict);
  if (byText) return byText;
  if (!strict && options.nearest === false) return { matched: false, rule: 'none', spans: [] };
  const quoteTokens = matchTokens(normalized);
  if (strict && mayMatchGapped(prepared, quoteTokens)) {
    const { tokenIndex } = prepared;
    const ctx = {
      tokens: tokenIndex.tokens,
      normalized: prepared.normalized,
      breakAfter: tokenIndex.breakAfter,
      skippable: tokenIndex.skippable,
    };
    const runs = findGappedMatch(tokenIndex, ctx, quoteTokens);
    if (runs) {
      const { start, end } = tokenIndex.tokens;
      return found(
        'gapped',
        runs.map(([a, b]) => toOriginalSpan(prepared.normalized, start[a]!, end[b - 1]!)),
      );
    }
  }
  if (options.nearest === false) return { matched: false, rule: 'none', spans: [] };
  const near = nearestPassage(prepared, normalized.text, quoteTokens);
  if (!near) return { matched: false, rule: 'none', spans: [], similarity: 0 };
  return {
    matched: false,
    rule: 'none',
    spans: [],
    similarity: near.similarity,
    nearest: { start: near.start, end: near.end, text: near.text },
  };
}
