import { canonicalOrder } from './keyed-mean-interval.js';

/** One system's score on one item, tri-state: a number, or why there is none. */
export type ItemScore = number | 'failed' | 'not-applicable';

/** Two systems' scores on the items both scored, in canonical (item id) order. */
export interface PairedItems {
  ids: string[];
  a: number[];
  b: number[];
  /** Shared items left out because either side failed on them (never counted as 0). */
  droppedFailed: number;
  /** Shared items left out because the metric does not apply on either side (and neither failed). */
  droppedNotApplicable: number;
  /** Items only one side has. */
  onlyA: number;
  onlyB: number;
}

/**
 * Pairs two systems' item scores for a paired test: an item counts when both sides have a number
 * for it; one failed or not applicable on either side is left out of this pair (and counted, so
 * the table can print how many), as are items only one side has. Items come in id order
 * (`canonicalOrder`), so resampling results depend only on the items and the seed.
 */
export function pairItems(a: ReadonlyMap<string, ItemScore>, b: ReadonlyMap<string, ItemScore>): PairedItems {
  const shared: string[] = [];
  let onlyA = 0;
  for (const id of a.keys()) {
    if (b.has(id)) shared.push(id);
    else onlyA++;
  }
  const onlyB = b.size - shared.length;
  const ids: string[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  let droppedFailed = 0;
  let droppedNotApplicable = 0;
  for (const i of canonicalOrder(shared)) {
    const id = shared[i]!;
    const x = a.get(id)!;
    const y = b.get(id)!;
    if (typeof x === 'number' && typeof y === 'number') {
      ids.push(id);
      xs.push(x);
      ys.push(y);
    } else if (x === 'failed' || y === 'failed') droppedFailed++;
    else droppedNotApplicable++;
  }
  return { ids, a: xs, b: ys, droppedFailed, droppedNotApplicable, onlyA, onlyB };
}
