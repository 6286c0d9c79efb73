import { CitegeistError, quoteValue } from '../core/index.js';

/** Ratings indexed for fitting: facets as dense indices, scores as category indices 0..m. */
export interface IndexedRatings<Id> {
  items: Id[];
  raters: Id[];
  item: Int32Array;
  rater: Int32Array;
  score: Int32Array;
}

/** Checks the category list: at least two finite values, strictly ascending. */
export function checkCategories(categories: readonly number[]): number[] {
  const ok =
    Array.isArray(categories) &&
    categories.length >= 2 &&
    categories.every(
      (c, i) => typeof c === 'number' && Number.isFinite(c) && (i === 0 || c > categories[i - 1]!),
    );
  if (!ok) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `fitPartialCreditModel: option "categories" is ${quoteValue(categories)}; it must list at least two finite scores in ascending order.`,
      'Pass the ordered score values, e.g. categories: [1, 2, 3, 4, 5].',
    );
  }
  return [...categories];
}

export function checkOption(name: string, value: number, ok: boolean, expected: string): void {
  if (!ok || typeof value !== 'number' || Number.isNaN(value)) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `fitPartialCreditModel: option "${name}" is ${quoteValue(value)}; it must be ${expected}.`,
      `Pass ${name} as ${expected}.`,
    );
  }
}

/** Validates every rating (naming its index) and maps items, raters and scores to indices. */
export function indexRatings<Id extends string | number>(
  ratings: readonly { item: Id; rater: Id; score: number }[],
  categories: readonly number[],
): IndexedRatings<Id> {
  if (!Array.isArray(ratings) || ratings.length === 0) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `fitPartialCreditModel: argument "ratings" must be a non-empty array, got ${quoteValue(ratings)}.`,
      'Pass at least one {item, rater, score} rating.',
    );
  }
  const itemIndex = new Map<Id, number>();
  const raterIndex = new Map<Id, number>();
  const categoryIndex = new Map(categories.map((c, k) => [c, k]));
  const n = ratings.length;
  const out: IndexedRatings<Id> = {
    items: [],
    raters: [],
    item: new Int32Array(n),
    rater: new Int32Array(n),
    score: new Int32Array(n),
  };
  ratings.forEach((r, o) => {
    checkId(r?.item, o, 'item');
    checkId(r?.rater, o, 'rater');
    const k = categoryIndex.get(r.score);
    if (k === undefined) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `fitPartialCreditModel: argument "ratings" holds score ${typeof r.score === 'number' ? String(r.score) : quoteValue(r.score)} at index ${o}; it is not one of the categories ${quoteValue(categories)}.`,
        'Map every score to one of the listed categories (or add the category), and drop missing ratings.',
      );
    }
    out.item[o] = lookup(itemIndex, out.items, r.item);
    out.rater[o] = lookup(raterIndex, out.raters, r.rater);
    out.score[o] = k;
  });
  return out;
}

function lookup<Id>(index: Map<Id, number>, list: Id[], id: Id): number {
  let k = index.get(id);
  if (k === undefined) {
    k = list.length;
    index.set(id, k);
    list.push(id);
  }
  return k;
}

function checkId(id: unknown, o: number, field: string): void {
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    throw new CitegeistError(
      'STATS_BAD_DATA',
      `fitPartialCreditModel: argument "ratings" holds ${field} ${quoteValue(id)} at index ${o}; it must be a string or a number.`,
      `Give every rating an ${field} identifier.`,
    );
  }
}
