/**
 * `npm run bench -- partial-credit`: parameter recovery of the many-facet partial credit model on
 * simulated data with known parameters (seeds 1–20), for MML (default) and JML, and fit times as a
 * ratio to a baseline (Spearman on 100k pairs, min of 5 passes) measured in the same run, with the
 * load average. No reference implementation is installable here (R's TAM or mirt), so the fit times
 * are against that baseline only. Figures quoted in docs/partial-credit-model.md come from this script.
 */
import {
  createRandom,
  fitPartialCreditModel,
  type PcmRating,
  partialCreditProbabilities,
  pearson,
  spearman,
} from '../src/stats/index.js';
import { formatTiming, interleaved, loadAverage, timed } from './interleaved.js';

const THRESHOLDS = [-2, -0.7, 0.6, 2.1];

function simulate(items: number, severities: readonly number[], sd: number, seed: number) {
  const random = createRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const theta = Array.from({ length: items }, () => sd * normal());
  const ratings: PcmRating[] = [];
  theta.forEach((t, i) => {
    severities.forEach((l, r) => {
      const p = partialCreditProbabilities(t, l, THRESHOLDS);
      let u = random();
      let k = 0;
      while (k < p.length - 1 && u >= p[k]!) u -= p[k++]!;
      ratings.push({ item: i, rater: r, score: k + 1 });
    });
  });
  return { theta, ratings };
}

const fmt = (xs: readonly number[]) => xs.map((x) => x.toFixed(3).padStart(6)).join(' ');

function recovery(items: number, raters: number, method: 'mml' | 'jml', seeds: number): number {
  const severities = Array.from({ length: raters }, (_, k) => -0.6 + (1.2 * k) / (raters - 1));
  const truth = [...severities, ...THRESHOLDS];
  const errors: number[][] = [];
  const maxErrors: number[] = [];
  const rs: number[] = [];
  let ms = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const { theta, ratings } = simulate(items, severities, 1.5, seed);
    const t0 = performance.now();
    const fit = fitPartialCreditModel(ratings, { categories: [1, 2, 3, 4, 5], method });
    ms += performance.now() - t0;
    const est = [...fit.raterSeverity.map((r) => r.severity), ...fit.thresholds];
    const e = est.map((v, k) => v - truth[k]!);
    errors.push(e);
    maxErrors.push(Math.max(...e.map(Math.abs)));
    rs.push(
      pearson(
        fit.itemMeasures.map((m) => m.measure),
        theta,
      )!,
    );
  }
  const col = (f: (e: number[]) => number) =>
    truth.map((_, k) => errors.reduce((s, e) => s + f(e.slice(k)), 0));
  const bias = col((e) => e[0]!).map((x) => x / seeds);
  const rmse = col((e) => e[0]! ** 2).map((x) => Math.sqrt(x / seeds));
  maxErrors.sort((a, b) => a - b);
  console.log(`${method.toUpperCase()} ${items} items × ${raters} raters, θ ~ N(0, 1.5²), ${seeds} seeds`);
  console.log(`  bias (λ…, δ…): ${fmt(bias)}`);
  console.log(`  RMSE (λ…, δ…): ${fmt(rmse)}`);
  console.log(
    `  max |error| per fit: median ${maxErrors[Math.floor(seeds / 2)]!.toFixed(3)}, worst ${maxErrors[seeds - 1]!.toFixed(3)}`,
  );
  console.log(
    `  r(measure, θ): min ${Math.min(...rs).toFixed(3)}, mean ${(rs.reduce((a, b) => a + b) / seeds).toFixed(3)}`,
  );
  return ms / seeds;
}

export default async function (): Promise<void> {
  const x = Array.from({ length: 100_000 }, (_, i) => Math.sin(i));
  const y = Array.from({ length: 100_000 }, (_, i) => Math.cos(i * 0.7));
  const base = await interleaved(5, { spearman: () => timed(() => spearman(x, y)) });
  const baseline = base.spearman!.min;
  console.log(`baseline: Spearman on 100k pairs, ${formatTiming(base.spearman!)}; load ${loadAverage()}`);
  const seeds = 20;
  for (const [items, raters] of [
    [200, 5],
    [1500, 5],
    [300, 10],
  ] as const) {
    for (const method of ['mml', 'jml'] as const) {
      const ms = recovery(items, raters, method, seeds);
      console.log(
        `  fit time: ${(ms / baseline).toFixed(1)}× Spearman on 100k pairs (${ms.toFixed(0)} ms vs ${baseline.toFixed(0)} ms)`,
      );
    }
  }
}
