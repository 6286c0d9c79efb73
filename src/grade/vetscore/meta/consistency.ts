import { spearman } from '../../../stats/index.js';
import type { AlignedClaim } from './align.js';

export interface RunPairConsistency {
  runs: [number, number];
  /** Claims scored in both runs. */
  claims: number;
  verdict_identical: number | null;
  harm_identical: number | null;
  /** Spearman of the per-segment combined scores of the two runs. */
  segment_score_spearman: number | null;
}

/** Run-to-run consistency between every pair of --auto runs, over the claims both scored. */
export function runConsistency(
  claims: AlignedClaim[],
  runs: number,
  segmentScore: (claims: { v: number; w: number }[]) => number | null,
): RunPairConsistency[] {
  const out: RunPairConsistency[] = [];
  for (let a = 0; a < runs; a++) {
    for (let b = a + 1; b < runs; b++) {
      const both = claims.flatMap((c) => {
        const x = c.auto[a];
        const y = c.auto[b];
        return x && y ? [{ c, x, y }] : [];
      });
      const segments = new Map<string, { x: { v: number; w: number }[]; y: { v: number; w: number }[] }>();
      for (const { c, x, y } of both) {
        const key = `${c.answer}\u0000${c.segment}`;
        const s = segments.get(key) ?? { x: [], y: [] };
        s.x.push(x);
        s.y.push(y);
        segments.set(key, s);
      }
      const xs: number[] = [];
      const ys: number[] = [];
      for (const s of segments.values()) {
        const sx = segmentScore(s.x);
        const sy = segmentScore(s.y);
        if (sx !== null && sy !== null) {
          xs.push(sx);
          ys.push(sy);
        }
      }
      const n = both.length;
      out.push({
        runs: [a, b],
        claims: n,
        verdict_identical: n === 0 ? null : both.filter((p) => p.x.v === p.y.v).length / n,
        harm_identical: n === 0 ? null : both.filter((p) => p.x.w === p.y.w).length / n,
        segment_score_spearman: xs.length < 2 ? null : spearman(xs, ys),
      });
    }
  }
  return out;
}
