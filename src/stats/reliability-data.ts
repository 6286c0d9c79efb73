import { CitegeistError, quoteValue } from '../core/index.js';
import type { ReliabilityData } from './krippendorff-alpha.js';

/** One judgement in long format: which rater gave which unit which value (null = no value). */
export interface UnitRating {
  unit: string | number;
  rater: string | number;
  value: number | null;
}

/**
 * Pivots long-format judgements (e.g. annotation CSV rows) into the raters × units matrix that
 * `krippendorffAlpha` takes. Raters and units keep their first-seen order; cells nobody filled are
 * null. A rater judging the same unit twice is refused (naming both indices): decide which counts.
 */
export function reliabilityDataFromRatings(ratings: readonly UnitRating[]): {
  data: ReliabilityData;
  raters: (string | number)[];
  units: (string | number)[];
} {
  const raters = new Map<string | number, number>();
  const units = new Map<string | number, number>();
  for (const r of ratings) {
    if (!raters.has(r.rater)) raters.set(r.rater, raters.size);
    if (!units.has(r.unit)) units.set(r.unit, units.size);
  }
  const data = [...raters.keys()].map(() => new Array<number | null>(units.size).fill(null));
  const seen = new Map<string, number>();
  ratings.forEach((r, index) => {
    const key = `${typeof r.rater}:${r.rater}\u0000${typeof r.unit}:${r.unit}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `reliabilityDataFromRatings: rater ${quoteValue(r.rater)} rated unit ${quoteValue(r.unit)} twice (indices ${earlier} and ${index}).`,
        'Keep one judgement per rater and unit (e.g. the latest) before computing agreement.',
      );
    }
    seen.set(key, index);
    if (r.value !== null && !(typeof r.value === 'number' && Number.isFinite(r.value))) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `reliabilityDataFromRatings: argument "ratings" holds value ${typeof r.value === 'number' ? String(r.value) : quoteValue(r.value)} at index ${index}.`,
        'Use a finite number, or null for a missing judgement.',
      );
    }
    data[raters.get(r.rater)!]![units.get(r.unit)!] = r.value;
  });
  return { data, raters: [...raters.keys()], units: [...units.keys()] };
}
