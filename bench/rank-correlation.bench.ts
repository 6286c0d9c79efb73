/**
 * `npm run bench -- rank-correlation`: Kendall τ-b (O(n log n)) and Spearman at growing n, as
 * ratios to a naive O(n²) pair count measured in the same run at n = 5,000.
 */
import { createRandom, kendallTauB, spearman } from '../src/stats/index.js';

function sample(n: number, seed: number): [number[], number[]] {
  const random = createRandom(seed);
  const x = Array.from({ length: n }, () => Math.floor(random() * 50));
  const y = x.map((v) => v + Math.floor(random() * 30));
  return [x, y];
}

function naiveTauB(x: readonly number[], y: readonly number[]): number {
  let s = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      s += Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
      if (x[i] === x[j]) tx++;
      if (y[i] === y[j]) ty++;
    }
  }
  const n0 = (x.length * (x.length - 1)) / 2;
  return s / Math.sqrt((n0 - tx) * (n0 - ty));
}

function time(f: () => unknown): number {
  f(); // warm-up
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

export default async function (): Promise<void> {
  const [bx, by] = sample(5000, 1);
  const baseline = time(() => naiveTauB(bx, by));
  console.log(`baseline: naive O(n²) τ-b at n = 5,000: ${baseline.toFixed(1)} ms`);
  console.log(
    `agreement with the naive count: |Δ| = ${Math.abs(kendallTauB(bx, by)! - naiveTauB(bx, by)).toExponential(1)}`,
  );
  for (const n of [5_000, 100_000, 1_000_000]) {
    const [x, y] = sample(n, 2);
    const k = time(() => kendallTauB(x, y));
    const s = time(() => spearman(x, y));
    console.log(
      `n = ${n.toLocaleString('en')}: kendallTauB ${(k / baseline).toFixed(3)}× baseline (${k.toFixed(1)} ms), spearman ${(s / baseline).toFixed(3)}× (${s.toFixed(1)} ms)`,
    );
  }
}
