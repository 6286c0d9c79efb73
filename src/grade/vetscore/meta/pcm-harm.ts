import { fitPartialCreditModel, partialCreditExpectedScore } from '../../../stats/index.js';
import type { AlignedClaim } from './align.js';
import { type HarmAggregate, meanHarm } from './harm-aggregate.js';

/** What the PCM aggregation reports beside the per-claim values. */
export interface PcmHarmDetails {
  converged: boolean;
  iterations: number;
  method: 'mml' | 'jml';
  /** λ per annotator in logits (Σλ = 0); higher = gives lower harm ratings (more severe). */
  rater_severity: { annotator: string; severity: number; standard_error: number; ratings: number }[];
  thresholds: number[];
  ratings: number;
}

/**
 * Aggregates the annotators' harm ratings of each claim with the many-facet Partial Credit Model
 * (METHODS §3.6): fits θ per claim, a severity λ per annotator and shared step thresholds, then
 * reports each claim's *fair average*, the expected rating 1 + E[X | θ, λ = 0] an annotator of
 * average severity would give. This removes rater severity from the human harm values. Falls back to
 * the plain mean (saying so) when there are fewer than two annotators or the fit does not converge.
 */
export function pcmHarm(claims: AlignedClaim[], annotators: string[]): HarmAggregate {
  const ratings = claims.flatMap((c) =>
    [...c.human.entries()].flatMap(([rater, h]) =>
      h.harm === null ? [] : [{ item: c.key, rater, score: h.harm }],
    ),
  );
  const raters = new Set(ratings.map((r) => r.rater));
  if (raters.size < 2) {
    const fallback = meanHarm(claims, annotators);
    return {
      ...fallback,
      method: 'mean of annotators (PCM needs at least two annotators with harm ratings)',
    };
  }
  const fit = fitPartialCreditModel(ratings, { categories: [1, 2, 3, 4, 5] });
  const details: PcmHarmDetails = {
    converged: fit.converged,
    iterations: fit.iterations,
    method: fit.method,
    rater_severity: fit.raterSeverity.map((r) => ({
      annotator: String(r.rater),
      severity: r.severity,
      standard_error: r.standardError,
      ratings: r.ratings,
    })),
    thresholds: fit.thresholds,
    ratings: ratings.length,
  };
  if (!fit.converged) {
    return {
      ...meanHarm(claims, annotators),
      method: 'mean of annotators (the PCM fit did not converge)',
      details,
    };
  }
  const perClaim = new Map<string, number>();
  for (const m of fit.itemMeasures)
    perClaim.set(String(m.item), 1 + partialCreditExpectedScore(m.measure, 0, fit.thresholds));
  return { perClaim, method: `partial credit model (${fit.method}), fair average at mean severity`, details };
}
