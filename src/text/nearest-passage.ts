/**
 * The diagnostic for a quote that did not match: the paper passage it is closest to, and how close.
 *
 * Cheap by construction: each quote word that is not too common in the paper (at most
 * `MAX_POSTINGS` occurrences) votes for the paper token where the quote would start if that word were
 * aligned (its position minus its index in the quote), in buckets of 4 tokens. The best-voted start
 * gives a window of quote length (in tokens, plus a small margin) and its similarity is
 * `sequenceRatio(quote, window)` on the normalised texts; the runner-up is also scored only when it
 * has at least `CLOSE_CALL` of the best one's votes. So a miss costs a few posting-list walks and one
 * (rarely two) ratio computations on quote-sized strings.
 */
import type { MatchTokens } from './match-tokens.js';
import { TokenKind } from './match-tokens.js';
import { toOriginalSpan } from './normalize.js';
import type { PreparedPaper } from './prepare-paper.js';
import { sequenceRatio } from './sequence-ratio.js';

const MAX_POSTINGS = 32;
const BUCKET = 4;
const CLOSE_CALL = 0.8;
const MARGIN = 1;

/** The passage of the paper nearest to a quote: span in the original text, its text, similarity. */
export interface NearestPassage {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** `sequenceRatio(normalised quote, normalised passage)`, in [0, 1]. */
  readonly similarity: number;
}

/** Per-paper vote counters, reused across quotes (cleared after each use). */
const voteBuffers = new WeakMap<PreparedPaper, Int32Array>();

/**
 * Votes for start buckets and returns the best bucket and, when it is a close call, the runner-up
 * (ties: earlier first).
 */
function bestBuckets(paper: PreparedPaper, quote: MatchTokens): number[] {
  const { vocabulary, postingStart, positions, tokens } = paper.tokenIndex;
  let votes = voteBuffers.get(paper);
  if (votes === undefined) {
    votes = new Int32Array(Math.floor(tokens.length / BUCKET) + 1);
    voteBuffers.set(paper, votes);
  }
  const touched: number[] = [];
  for (let i = 0; i < quote.length; i++) {
    if (quote.kind[i] === TokenKind.Symbol) continue;
    const id = vocabulary.get(quote.text[i]!);
    if (id === undefined) continue;
    const from = postingStart[id]!;
    const to = postingStart[id + 1]!;
    if (to - from > MAX_POSTINGS) continue;
    for (let p = from; p < to; p++) {
      const bucket = Math.floor(Math.max(0, positions[p]! - i) / BUCKET);
      if (votes[bucket]!++ === 0) touched.push(bucket);
    }
  }
  let best = -1;
  let second = -1;
  for (const bucket of touched) {
    const v = votes[bucket]!;
    if (best < 0 || v > votes[best]! || (v === votes[best]! && bucket < best)) {
      second = best;
      best = bucket;
    } else if (second < 0 || v > votes[second]! || (v === votes[second]! && bucket < second)) {
      second = bucket;
    }
  }
  const out = best < 0 ? [] : [best];
  if (second >= 0 && votes[second]! >= CLOSE_CALL * votes[best]!) out.push(second);
  for (const bucket of touched) votes[bucket] = 0;
  return out;
}

/**
 * The nearest passage to a normalised quote (and its tokens), or undefined when no quote word occurs
 * in the paper at all.
 */
export function nearestPassage(
  paper: PreparedPaper,
  quoteText: string,
  quote: MatchTokens,
): NearestPassage | undefined {
  const tokens = paper.tokenIndex.tokens;
  if (tokens.length === 0 || quote.length === 0) return undefined;
  let best: NearestPassage | undefined;
  for (const bucket of bestBuckets(paper, quote)) {
    const first = Math.max(0, bucket * BUCKET - MARGIN);
    const last = Math.min(tokens.length, bucket * BUCKET + BUCKET + quote.length + MARGIN) - 1;
    const normStart = tokens.start[first]!;
    const normEnd = tokens.end[last]!;
    const similarity = sequenceRatio(quoteText, paper.normalized.text.slice(normStart, normEnd));
    if (best === undefined || similarity > best.similarity) {
      const span = toOriginalSpan(paper.normalized, normStart, normEnd);
      best = { start: span.start, end: span.end, text: paper.text.slice(span.start, span.end), similarity };
    }
  }
  return best;
}
