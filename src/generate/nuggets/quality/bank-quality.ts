/**
 * Bank-level quality figures (the released banks carry them in `metadata.quality`): mean and
 * population standard deviation of reading level, complexity and overall personalisation; lexical
 * diversity (type-token ratio, distinct n-grams averaged over n = 1..4, inverse compression =
 * gzip size / text size); the mean question length in words; and coverage: questions clustered
 * single-link at cosine ≥ `coverageCosine` between embeddings of "<request> >>> <question>" (the
 * text the released coverage clusters), `coverage_estimate` = clusters / questions — what DBSCAN
 * with min_samples = 1 computes, which the released figures show (no noise points).
 *
 * Not computed: the verb-based semantic and POS-based syntactic diversity of the released
 * evaluator, which need a part-of-speech tagger citegeist does not ship.
 */
import { gzipSync } from 'node:zlib';
import { candidatePairs } from '../candidate-pairs.js';
import { singleLinkClusters } from '../union-find.js';
import { words } from './readability.js';

function meanStd(xs: readonly number[]): { mean: number | null; std: number | null } {
  if (xs.length === 0) return { mean: null, std: null };
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean: m, std: Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length) };
}

export function lexicalDiversity(questions: readonly string[]) {
  const tokens = questions.map((q) => words(q.toLowerCase()));
  const all = tokens.flat();
  const distinct = [1, 2, 3, 4].map((n) => {
    const grams = tokens.flatMap((t) =>
      t.slice(0, Math.max(0, t.length - n + 1)).map((_, i) => t.slice(i, i + n).join(' ')),
    );
    return grams.length ? new Set(grams).size / grams.length : 0;
  });
  const text = questions.join('\n');
  return {
    distinct_n: distinct.reduce((a, b) => a + b, 0) / distinct.length,
    inverse_compression: text.length ? gzipSync(Buffer.from(text)).length / Buffer.byteLength(text) : 0,
    ttr: all.length ? new Set(all).size / all.length : 0,
  };
}

export interface NuggetScores {
  question: string;
  reading_level: number;
  complexity: number;
  personalization_overall: number | null;
}

export async function bankQuality(
  nuggets: readonly NuggetScores[],
  request: string,
  embed: (texts: string[]) => Promise<Float32Array[]>,
  coverageCosine: number,
) {
  const rl = meanStd(nuggets.map((n) => n.reading_level));
  const cx = meanStd(nuggets.map((n) => n.complexity));
  const po = meanStd(nuggets.map((n) => n.personalization_overall).filter((v): v is number => v !== null));
  const questions = nuggets.map((n) => n.question);
  const vectors = questions.length > 1 ? await embed(questions.map((q) => `${request} >>> ${q}`)) : [];
  const pairs = candidatePairs(vectors, coverageCosine).pairs;
  const clusters = singleLinkClusters(
    questions.length,
    pairs.map((p) => [p.i, p.j] as const),
  );
  return {
    avg_reading_level: rl.mean,
    stddev_reading_level: rl.std,
    avg_complexity: cx.mean,
    stddev_complexity: cx.std,
    avg_personalization_overall: po.mean,
    stddev_personalization_overall: po.std,
    coverage: {
      num_clusters: clusters.length,
      coverage_estimate: questions.length ? clusters.length / questions.length : null,
      cosine: coverageCosine,
    },
    lexical_diversity: lexicalDiversity(questions),
    avg_num_words: questions.length
      ? questions.reduce((a, q) => a + words(q).length, 0) / questions.length
      : null,
  };
}
