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

/** What a comparison reads of paired items: `PairedItems` without the ids. */
export type PairedScores = Omit<PairedItems, 'ids'>;

/** One system's scores over a fixed list of item ids: kind 0 absent, 1 scored, 2 failed, 3 n/a. */
export interface AlignedScores {
  values: Float64Array;
  kind: Uint8Array;
}

const KIND = { failed: 2, 'not-applicable': 3 } as const;

/**
 * Many systems' scores over the union of their item ids in canonical order, sorted once: a table of
 * k systems then pairs them k(k − 1)/2 times by position (`pairAligned`) instead of sorting ids
 * for every pair.
 */
export function alignScores(systems: readonly ReadonlyMap<string, ItemScore>[]): {
  ids: string[];
  columns: AlignedScores[];
} {
  const union = new Set<string>();
  for (const s of systems) for (const id of s.keys()) union.add(id);
  const all = [...union];
  const ids = canonicalOrder(all).map((i) => all[i]!);
  const columns = systems.map((s) => {
    const values = new Float64Array(ids.length);
    const kind = new Uint8Array(ids.length);
    ids.forEach((id, i) => {
      const v = s.get(id);
      if (v === undefined) return;
      if (typeof v === 'number') {
        values[i] = v;
        kind[i] = 1;
      } else kind[i] = KIND[v];
    });
    return { values, kind };
  });
  return { ids, columns };
}

/** `pairItems` of two aligned systems (the same result, without the per-pair sort). */
export function pairAligned(ids: readonly string[], x: AlignedScores, y: AlignedScores): PairedItems {
  const { kind: kx } = x;
  const { kind: ky } = y;
  const scores = pairAlignedScores(x, y);
  const pairedIds = new Array<string>(scores.a.length);
  let k = 0;
  for (let i = 0; i < ids.length; i++) if (kx[i] === 1 && ky[i] === 1) pairedIds[k++] = ids[i]!;
  return { ids: pairedIds, ...scores };
}

/**
 * `pairAligned` without the ids, which no figure of a comparison reads: a table of hundreds of
 * comparisons of 50,000 items then does not build (and collect) an id list for each.
 */
export function pairAlignedScores(x: AlignedScores, y: AlignedScores): PairedScores {
  const { kind: kx, values: vx } = x;
  const { kind: ky, values: vy } = y;
  const tally = tallyAligned(x, y);
  // Sized once (no growth while pairing: 50,000 pairs per comparison in a table of hundreds).
  const a = new Array<number>(tally.n).fill(0);
  const b = new Array<number>(tally.n).fill(0);
  let k = 0;
  for (let i = 0; i < kx.length; i++) {
    if (kx[i] !== 1 || ky[i] !== 1) continue;
    a[k] = vx[i]!;
    b[k] = vy[i]!;
    k++;
  }
  const { droppedFailed, droppedNotApplicable, onlyA, onlyB } = tally;
  return { a, b, droppedFailed, droppedNotApplicable, onlyA, onlyB };
}

/** What pairing two aligned columns keeps and leaves out: items scored on both sides, and why the rest are not. */
export interface AlignedTally {
  n: number;
  onlyA: number;
  onlyB: number;
  droppedFailed: number;
  droppedNotApplicable: number;
}

/**
 * The tri-state rule of a pairing, in one place: an item scored on both sides is paired; one
 * present on one side only is `onlyA`/`onlyB`; a failed score on either side is a failed drop, else
 * a not-applicable one.
 */
export function tallyAligned(x: AlignedScores, y: AlignedScores): AlignedTally {
  const kx = x.kind;
  const ky = y.kind;
  const t: AlignedTally = { n: 0, onlyA: 0, onlyB: 0, droppedFailed: 0, droppedNotApplicable: 0 };
  for (let i = 0; i < kx.length; i++) {
    const p = kx[i]!;
    const q = ky[i]!;
    if (p === 1 && q === 1) t.n++;
    else if (p === 0 && q === 0) continue;
    else if (q === 0) t.onlyA++;
    else if (p === 0) t.onlyB++;
    else if (p === 2 || q === 2) t.droppedFailed++;
    else t.droppedNotApplicable++;
  }
  return t;
}
