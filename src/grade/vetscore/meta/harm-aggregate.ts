import type { AlignedClaim } from './align.js';

/** Aggregates several annotators' harm ratings of a claim into one human harm value (1–5 scale). */
export type HarmAggregate = { perClaim: Map<string, number>; method: string; details?: unknown };
export type HarmAggregator = (claims: AlignedClaim[], annotators: string[]) => HarmAggregate;

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The plain mean of the annotators' harm ratings per claim (used when no PCM is given). */
export const meanHarm: HarmAggregator = (claims) => {
  const perClaim = new Map<string, number>();
  for (const c of claims) {
    const m = mean([...c.human.values()].flatMap((h) => (h.harm === null ? [] : [h.harm])));
    if (m !== null) perClaim.set(c.key, m);
  }
  return { perClaim, method: 'mean of annotators' };
};
