/**
 * The strict mode's own rule, `gapped`: the quote's tokens (words AND punctuation, see
 * `match-tokens.ts`) must appear in the paper in the same order, each equal to a paper token, with
 * only acceptable insertions between consecutive ones (`gap-rules.ts`). One quote token may also
 * equal two paper words joined across a line-break hyphen ("science" = "sci-" + "ence") and vice
 * versa. A reordered, substituted or missing token never matches. Budgets: at most
 * `MAX_GAP_TOKENS` tokens per gap, `MAX_TOTAL_GAP_TOKENS` in all, and at most
 * `2 + floor(quoteTokens / 4)` gaps.
 *
 * Search: candidate starts are the paper positions of the first quote token that lie within reach of
 * a position of the quote's rarest token; from each, a depth-first search takes the nearest
 * acceptable position for the next quote token and backtracks (failed states are memoised).
 */
import { canStartGap, type GapContext, isAcceptableGap, MAX_GAP_TOKENS } from './gap-rules.js';
import { isHyphenSplit, type MatchTokens } from './match-tokens.js';
import type { TokenIndex } from './token-index.js';

export const MAX_TOTAL_GAP_TOKENS = 60;

/** Matched runs of paper tokens, `[start, end)` token indexes, in order. */
export type TokenRuns = [number, number][];

interface Search {
  readonly index: TokenIndex;
  readonly ctx: GapContext;
  readonly quote: MatchTokens;
  readonly quoteIds: Int32Array;
  /** `quoteJoined[i]` = quote tokens i and i+2 joined when i, i+1, i+2 are a hyphen-split word. */
  readonly quoteJoined: (string | undefined)[];
  readonly maxGaps: number;
  readonly failed: Set<number>;
  readonly path: [number, number][];
}

const ONE_ONE: [number, number][] = [[1, 1]];

/** The ways quote token `qi` can match at paper token `l`: [quote tokens used, paper tokens used]. */
function stepOptions(s: Search, qi: number, l: number): [number, number][] | undefined {
  const { tokens: paper, ids, splitAt } = s.index;
  const qid = s.quoteIds[qi]!;
  const direct = qid >= 0 && ids[l] === qid;
  const joined = s.quoteJoined[qi];
  const quoteSplit = joined !== undefined && joined === paper.text[l];
  const paperSplit = splitAt[l] === 1 && paper.text[l]! + paper.text[l + 2]! === s.quote.text[qi];
  if (!quoteSplit && !paperSplit) return direct ? ONE_ONE : undefined;
  const options: [number, number][] = direct ? [[1, 1]] : [];
  if (paperSplit) options.push([1, 3]);
  if (quoteSplit) options.push([3, 1]);
  return options;
}

/** One state of the depth-first search: quote token `qi` is next, paper token `pk` is next. */
interface Frame {
  readonly qi: number;
  readonly pk: number;
  readonly gaps: number;
  readonly gapTokens: number;
  /** Last paper position to try for quote token `qi`. */
  readonly last: number;
  /** Paper position being tried and its remaining options. */
  l: number;
  options: [number, number][] | undefined;
  next: number;
}

function frame(s: Search, qi: number, pk: number, gaps: number, gapTokens: number): Frame {
  const total = s.index.tokens.length;
  const last = qi === 0 || !canStartGap(s.ctx, pk) ? pk : Math.min(total - 1, pk + MAX_GAP_TOKENS);
  return { qi, pk, gaps, gapTokens, last, l: pk - 1, options: undefined, next: 0 };
}

/** Moves `f` to its next paper position with options and an acceptable gap; false when exhausted. */
function advance(s: Search, f: Frame): boolean {
  for (let l = f.l + 1; l <= f.last; l++) {
    const options = stepOptions(s, f.qi, l);
    if (options === undefined) continue;
    const gap = l - f.pk;
    if (gap > 0) {
      if (f.gaps + 1 > s.maxGaps || f.gapTokens + gap > MAX_TOTAL_GAP_TOKENS) break;
      if (!isAcceptableGap(s.ctx, f.pk, l)) continue;
    }
    f.l = l;
    f.options = options;
    f.next = 0;
    return true;
  }
  f.l = f.last;
  return false;
}

/**
 * Depth-first search from quote token 0 at paper token `start`, with an explicit stack (quotes can
 * have thousands of tokens). On success `s.path` holds the matched paper runs, one per step.
 */
function solve(s: Search, start: number): boolean {
  const total = s.index.tokens.length;
  const stack: Frame[] = [frame(s, 0, start, 0, 0)];
  s.path.length = 0;
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.qi === s.quote.length) return true;
    if ((f.options === undefined || f.next >= f.options.length) && !advance(s, f)) {
      s.failed.add(f.qi * (total + 1) + f.pk);
      stack.pop();
      continue;
    }
    const [qc, pc] = f.options![f.next++]!;
    const gap = f.l - f.pk;
    const child = frame(s, f.qi + qc, f.l + pc, f.gaps + (gap > 0 ? 1 : 0), f.gapTokens + gap);
    if (child.qi < s.quote.length && s.failed.has(child.qi * (total + 1) + child.pk)) continue;
    s.path.length = stack.length - 1;
    s.path.push([f.l, f.l + pc]);
    stack.push(child);
  }
  return false;
}

function postings(index: TokenIndex, id: number): Int32Array {
  return index.positions.subarray(index.postingStart[id]!, index.postingStart[id + 1]!);
}

/** First index in ascending `list` whose value is >= `value`. */
function lowerBound(list: Int32Array, value: number): number {
  let a = 0;
  let b = list.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (list[mid]! < value) a = mid + 1;
    else b = mid;
  }
  return a;
}

/** True when quote token i is part of a hyphen-split word of the quote. */
function inQuoteSplit(s: Search, i: number): boolean {
  return (
    s.quoteJoined[i] !== undefined ||
    (i >= 1 && s.quoteJoined[i - 1] !== undefined) ||
    (i >= 2 && s.quoteJoined[i - 2] !== undefined)
  );
}

/** A quote token that exists nowhere in the paper, not even through a hyphen join, rules out a match. */
function allTokensPossible(s: Search): boolean {
  for (let i = 0; i < s.quote.length; i++) {
    if (s.quoteIds[i]! >= 0 || s.index.hyphenJoins.has(s.quote.text[i]!) || inQuoteSplit(s, i)) continue;
    return false;
  }
  return true;
}

/** The quote token (index > 0) with the fewest paper positions that can only match itself, or -1. */
function rarestToken(s: Search): number {
  let rare = -1;
  let rareCount = Number.POSITIVE_INFINITY;
  for (let i = 1; i < s.quote.length; i++) {
    const id = s.quoteIds[i]!;
    if (id < 0 || s.index.hyphenJoins.has(s.quote.text[i]!) || inQuoteSplit(s, i)) continue;
    const count = s.index.postingStart[id + 1]! - s.index.postingStart[id]!;
    if (count < rareCount) {
      rare = i;
      rareCount = count;
    }
  }
  return rare;
}

/**
 * Paper positions where quote token 0 can start a match, ascending. When the first token can only
 * match itself and the quote has a rarer token at index r, a start must lie in
 * [p - 3r - MAX_TOTAL_GAP_TOKENS, p - floor(r/3)] for one of its positions p (each quote token uses
 * 1 to 3 paper tokens, plus the gaps), so only those are returned.
 */
function startCandidates(s: Search): number[] {
  const { index, quote } = s;
  const id = s.quoteIds[0]!;
  const first = id >= 0 ? postings(index, id) : new Int32Array(0);
  const joinedFirst = index.hyphenJoins.get(quote.text[0]!);
  const quoteJoined = s.quoteJoined[0];
  const joinedId = quoteJoined === undefined ? undefined : index.vocabulary.get(quoteJoined);
  const rare = rarestToken(s);
  if (joinedFirst === undefined && joinedId === undefined && rare >= 0) {
    const rarePositions = postings(index, s.quoteIds[rare]!);
    if (rarePositions.length >= first.length) return Array.from(first);
    const out: number[] = [];
    let next = 0; // keeps the output ascending and duplicate-free
    for (let k = 0; k < rarePositions.length; k++) {
      const p = rarePositions[k]!;
      const lo = Math.max(next, p - 3 * rare - MAX_TOTAL_GAP_TOKENS);
      const hi = p - Math.floor(rare / 3);
      for (let i = lowerBound(first, lo); i < first.length && first[i]! <= hi; i++) out.push(first[i]!);
      next = Math.max(next, hi + 1);
    }
    return out;
  }
  const all = new Set<number>(first);
  for (const p of joinedFirst ?? []) all.add(p);
  if (joinedId !== undefined) for (const p of postings(index, joinedId)) all.add(p);
  return [...all].sort((a, b) => a - b);
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
  const quoteJoined: (string | undefined)[] = [];
  for (let i = 0; i < quote.length; i++) {
    quoteIds[i] = index.vocabulary.get(quote.text[i]!) ?? -1;
    quoteJoined.push(isHyphenSplit(quote, i) ? quote.text[i]! + quote.text[i + 2]! : undefined);
  }
  const s: Search = {
    index,
    ctx,
    quote,
    quoteIds,
    quoteJoined,
    maxGaps: 2 + Math.floor(quote.length / 4),
    failed: new Set(),
    path: [],
  };
  if (!allTokensPossible(s)) return undefined;
  for (const start of startCandidates(s)) {
    if (solve(s, start)) {
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
