/**
 * Single-link clusters over verified paraphrase pairs (union-find with path halving and union by
 * size). The released code's `group_items` / `invert_group_mapping` are not published
 * (manestay/dogmatiq `step2_merge_paraphrases.py`); their order is fixed here: clusters with more
 * than one member first, by their smallest member, then the singletons in input order (the
 * released code appends singletons after its groups), members in input order.
 */
import { CitegeistError } from '../../core/index.js';
export function singleLinkClusters(size: number, pairs: Iterable<readonly [number, number]>): number[][] {
  const parent = Int32Array.from({ length: size }, (_, i) => i);
  const weight = new Int32Array(size).fill(1);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (const [a, b] of pairs) {
    if (a < 0 || b < 0 || a >= size || b >= size)
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `pair (${a}, ${b}) is outside 0..${size - 1}.`,
        'Pass pairs of indices below the size.',
      );
    let ra = find(a);
    let rb = find(b);
    if (ra === rb) continue;
    if (weight[ra]! < weight[rb]!) [ra, rb] = [rb, ra];
    parent[rb] = ra;
    weight[ra] = weight[ra]! + weight[rb]!;
  }
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < size; i++) {
    const r = find(i);
    const members = byRoot.get(r);
    if (members) members.push(i);
    else byRoot.set(r, [i]);
  }
  // Map order is the order of each cluster's smallest member.
  const clusters = [...byRoot.values()];
  return [...clusters.filter((c) => c.length > 1), ...clusters.filter((c) => c.length === 1)];
}
