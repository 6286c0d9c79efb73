/**
 * The strict mode's own rule, `gapped`: the quote's tokens (words AND punctuation, see
 * `match-tokens.ts`) must appear in the paper in the same order, each equal to a paper token, with
 * only acceptable insertions between consecutive ones (`gap-rules.ts`). One quote token may also
 * equal two paper words joined across a line-break hyphen ("science" = "sci-" + "ence") and vice
 * versa. A reordered, substituted or missing token never matches. Budgets: at most
 * `MAX_GAP_TOKENS` tokens per gap, `MAX_TOTAL_GAP_TOKENS` in all, and at most
 * `2 + floor(quoteTokens / 4)` gaps.
 */
import { type GapContext, isAcceptableGap, MAX_GAP_TOKENS } from './gap-rules.js';
import { isHyphenSplit, type MatchTokens } from './match-tokens.js';
import type { TokenIndex } from './prepare-paper.js';

export const MAX_TOTAL_GAP_TOKENS = 60;

/** Matched runs of paper tokens, `[start, end)` token indexes, in order. */
export type TokenRuns = [number, number][];

interface Search {
  readonly index: TokenIndex;
  readonly ctx: GapContext;
  readonly quote: MatchTokens;
  readonly quoteIds: Int32Array;
  readonly maxGaps: number;
  readonly failed: Set<number>;
  readonly path: [number, number][];
}

/** The ways quote token `qi` can match at paper token `l`: [quote tokens used, paper tokens used]. */
function stepOptions(s: Search, qi: number, l: number): [number, number][] {
  const { tokens: paper, ids } = s.index;
  const options: [number, number][] = [];
  const qid = s.quoteIds[qi]!;
  if (qid >= 0 && ids[l] === qid) options.push([1, 1]);
  const qText = s.quote.text[qi]!;
  if (isHyphenSplit(paper, l) && paper.text[l]! + paper.text[l + 2]! === qText) options.push([1, 3]);
  if (isHyphenSplit(s.quote, qi) && qText + s.quote.text[qi + 2]! === paper.text[l]) options.push([3, 1]);
  return options;
}

function solve(s: Search, qi: number, pk: number, gaps: number, gapTokens: number): boolean {
  if (qi === s.quote.length) return true;
  const total = s.index.tokens.length;
  const key = qi * (total + 1) + pk;
  if (s.failed.has(key)) return false;
  const last = qi === 0 ? pk : Math.min(total - 1, pk + MAX_GAP_TOKENS);
  for (let l = pk; l <= last; l++) {
    const options = stepOptions(s, qi, l);
    if (options.length === 0) continue;
    const gap = l - pk;
    if (gap > 0) {
      if (gaps + 1 > s.maxGaps || gapTokens + gap > MAX_TOTAL_GAP_TOKENS) break;
      if (!isAcceptableGap(s.ctx, pk, l)) continue;
    }
    for (const [qc, pc] of options) {
      s.path.push([l, l + pc]);
      if (solve(s, qi + qc, l + pc, gaps + (gap > 0 ? 1 : 0), gapTokens + gap)) return true;
      s.path.pop();
    }
  }
  s.failed.add(key);
  return false;
}

/** Paper positions where quote token 0 can start a match. */
function startCandidates(s: Search): number[] {
  const { index, quote } = s;
  const found = new Set<number>();
  const add = (list: ArrayLike<number> | undefined) => {
    if (list) for (let i = 0; i < list.length; i++) found.add(list[i]!);
  };
  const first = quote.text[0]!;
  const id = s.quoteIds[0]!;
  if (id >= 0) add(index.positions.subarray(index.postingStart[id]!, index.postingStart[id + 1]!));
  add(index.hyphenJoins.get(first));
  if (isHyphenSplit(quote, 0)) {
    const joined = index.vocabulary.get(first + quote.text[2]!);
    if (joined !== undefined) {
      add(index.positions.subarray(index.postingStart[joined]!, index.postingStart[joined + 1]!));
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** A quote token that exists nowhere in the paper, not even through a hyphen join, rules out a match. */
function allTokensPossible(s: Search): boolean {
  for (let i = 0; i < s.quote.length; i++) {
    if (s.quoteIds[i]! >= 0) continue;
    if (s.index.hyphenJoins.has(s.quote.text[i]!)) continue;
    if (isHyphenSplit(s.quote, i) || (i >= 1 && isHyphenSplit(s.quote, i - 1))) continue;
    if (i >= 2 && isHyphenSplit(s.quote, i - 2)) continue;
    return false;
  }
  return true;
}

/** Keeps the starts near which the quote's rarest token occurs at a reachable distance. */
function filterByRarest(s: Search, starts: number[]): number[] {
  const { index } = s;
  let rare = -1;
  let rareCount = Number.POSITIVE_INFINITY;
  for (let i = 1; i < s.quote.length; i++) {
    const id = s.quoteIds[i]!;
    if (id < 0 || index.hyphenJoins.has(s.quote.text[i]!)) continue;
    // A token inside a split word ("sci - ence") may be matched through the joined form instead.
    if (isHyphenSplit(s.quote, i) || (i >= 1 && isHyphenSplit(s.quote, i - 1))) continue;
    if (i >= 2 && isHyphenSplit(s.quote, i - 2)) continue;
    const count = index.postingStart[id + 1]! - index.postingStart[id]!;
    if (count < rareCount) {
      rare = i;
      rareCount = count;
    }
  }
  if (rare < 0) return starts;
  const id = s.quoteIds[rare]!;
  const list = index.positions.subarray(index.postingStart[id]!, index.postingStart[id + 1]!);
  return starts.filter((start) => {
    const lo = start + Math.floor(rare / 3);
    const hi = start + 3 * rare + MAX_TOTAL_GAP_TOKENS;
    let a = 0;
    let b = list.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (list[mid]! < lo) a = mid + 1;
      else b = mid;
    }
    return a < list.length && list[a]! <= hi;
  });
}

/**
 * Finds the first gapped match of the quote's tokens in the paper; returns the matched runs of
 * paper tokens (contiguous matched tokens merged), or undefined.
 */
export function findGappedMatch(
  index: TokenIndex,
  ctx: GapContext,
  quote: MatchTokens,
): TokenRuns | undefined {
  if (quote.length === 0) return undefined;
  const quoteIds = new Int32Array(quote.length);
  for (let i = 0; i < quote.length; i++) quoteIds[i] = index.vocabulary.get(quote.text[i]!) ?? -1;
  const s: Search = {
    index,
    ctx,
    quote,
    quoteIds,
    maxGaps: 2 + Math.floor(quote.length / 4),
    failed: new Set(),
    path: [],
  };
  if (!allTokensPossible(s)) return undefined;
  for (const start of filterByRarest(s, startCandidates(s))) {
    s.path.length = 0;
    if (solve(s, 0, start, 0, 0)) {
      const runs: TokenRuns = [];
      for (const [a, b] of s.path) {
        const lastRun = runs[runs.length - 1];
        if (lastRun && lastRun[1] === a) lastRun[1] = b;
        else runs.push([a, b]);
      }
      return runs;
    }
  }
  return undefined;
}
