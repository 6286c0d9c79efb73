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

const MAX_POSTINGS = 64;
const BUCKET = 4;
const CANDIDATES = 2;
const CLOSE_CALL = 0.8;
const MARGIN = 2;

/** The passage of the paper nearest to a quote: span in the original text, its text, similarity. */
export interface NearestPassage {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** `sequenceRatio(normalised quote, normalised passage)`, in [0, 1]. */
  readonly similarity: number;
}

function vote(paper: PreparedPaper, quote: MatchTokens): Map<number, number> {
  const { vocabulary, postingStart, positions } = paper.tokenIndex;
  const votes = new Map<number, number>();
  for (let i = 0; i < quote.length; i++) {
    if (quote.kind[i] === TokenKind.Symbol) continue;
    const id = vocabulary.get(quote.text[i]!);
    if (id === undefined) continue;
    const from = postingStart[id]!;
    const to = postingStart[id + 1]!;
    if (to - from > MAX_POSTINGS) continue;
    for (let p = from; p < to; p++) {
      const bucket = Math.floor(Math.max(0, positions[p]! - i) / BUCKET);
      votes.set(bucket, (votes.get(bucket) ?? 0) + 1);
    }
  }
  return votes;
}

/** The best bucket by votes and the runner-up if it is a close call (ties: earlier first). */
function topBuckets(votes: Map<number, number>): number[] {
  const best: [number, number][] = [];
  for (const [bucket, count] of votes) {
    if (best.length === CANDIDATES) {
      const worst = best[CANDIDATES - 1]!;
      if (count < worst[1] || (count === worst[1] && bucket > worst[0])) continue;
      best.pop();
    }
    let k = best.length;
    while (k > 0 && (best[k - 1]![1] < count || (best[k - 1]![1] === count && best[k - 1]![0] > bucket))) k--;
    best.splice(k, 0, [bucket, count]);
  }
  const top = best[0]?.[1] ?? 0;
  return best.filter(([, count]) => count >= CLOSE_CALL * top).map(([bucket]) => bucket);
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
  for (const bucket of topBuckets(vote(paper, quote))) {
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
