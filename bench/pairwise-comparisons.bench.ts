/**
 * `npm run bench -- pairwise-comparisons` (issue 28 goal: ≤ 5 s on 2 cores, ≤ 500 MB): the pairwise
 * table of 10 systems × 5 metrics × 50,000 shared items — every pair (45 × 5 = 225 comparisons),
 * each with a 10,000-resample paired bootstrap (percentile + BCa) and a 10,000-pattern
 * randomization test, Holm over the table. The metrics are per-item ratios of small counts, as the
 * ResearchQA metrics are (values k/4, k/3, k/2, 0/1, and k/m for m ≤ 6 rounded to 3 decimals), 2% of items failed
 * and 5% not applicable per system. Time of the whole table per pass (min, median) and the process's
 * peak resident memory. Steps, interleaved in each pass:
 * - baseline: each pair paired into two arrays and compared from them
 *   (`comparePairedItems(pairAlignedScores(…))`, the per-pair path `pairwiseTable` took before
 *   2026-12-01), on one thread;
 * - one thread: `pairwiseTable` (one pass over the aligned columns per pair, `compareAligned`);
 * - two threads: `buildPairwiseTable` (what every command calls: this thread and a worker,
 *   synchronous) and `pairwiseTableThreaded` (the same, asynchronous);
 * with their wall and CPU times (CPU: all threads of the process) and the check that every step
 * gives the same table, bit for bit.
 * BENCH_ITEMS, BENCH_SYSTEMS and BENCH_PASSES change the size; BENCH_SERIAL=0 leaves the one-thread
 * steps out (the peak memory is then the two-thread tables' alone).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  buildPairwiseTable,
  comparePairedItems,
  createRandom,
  type ItemScore,
  type MetricScores,
  type PairwiseTable,
  type PairwiseTableOptions,
  pairwiseTable,
  pairwiseTableThreaded,
} from '../src/stats/index.js';
import { alignScores, pairAlignedScores } from '../src/stats/pair-items.js';
import { systemPairs, tableOfComparisons } from '../src/stats/pairwise-table.js';
import { formatRatio, formatTiming, interleaved, loadAverage, summarize, withCpu } from './interleaved.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 50_000);
const SYSTEMS = Number(process.env.BENCH_SYSTEMS ?? 10);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const SERIAL = process.env.BENCH_SERIAL !== '0';
const LEVELS = [4, 3, 2, 1, 0];

function build(): MetricScores[] {
  const random = createRandom(28);
  const ids = Array.from({ length: ITEMS }, (_, i) => `row${String(i).padStart(6, '0')}`);
  return LEVELS.map((levels, m) => {
    const difficulty = ids.map(() => random());
    const systems = Array.from({ length: SYSTEMS }, (_, s) => {
      const skill = 0.3 + 0.04 * s;
      const scores = new Map<string, ItemScore>();
      ids.forEach((id, i) => {
        const u = random();
        if (u < 0.02) scores.set(id, 'failed');
        else if (u < 0.07) scores.set(id, 'not-applicable');
        else {
          const p = Math.min(1, Math.max(0, skill + 0.5 * (difficulty[i]! - 0.5) + 0.2 * (random() - 0.5)));
          // levels 0: a ratio k/m of a small count m (1..6), rounded to 3 decimals as graded rows are.
          const m = levels || 1 + Math.floor(random() * 6);
          const v = Math.round(p * m) / m;
          scores.set(id, levels ? v : Math.round(v * 1000) / 1000);
        }
      });
      return { label: `system${s}`, scores };
    });
    return { metric: `metric${m}`, higherIsBetter: true, systems };
  });
}

/** The per-pair path before 2026-12-01: two paired arrays per pair, every figure computed from them. */
function perPairArrays(metrics: readonly MetricScores[], options: PairwiseTableOptions): PairwiseTable {
  const comparisons = metrics.flatMap((m) => {
    const { columns } = alignScores(m.systems.map((s) => s.scores));
    return systemPairs(m.systems.length).map(([i, j]) =>
      comparePairedItems(pairAlignedScores(columns[i]!, columns[j]!), options),
    );
  });
  return tableOfComparisons(metrics, comparisons, options);
}

export default async function main(): Promise<void> {
  const metrics = build();
  const load = loadAverage();
  const options = { test: 'randomization', iterations: 10_000, seed: 28 } as const;
  const names = SERIAL
    ? (['baseline', 'serial', 'entry', 'threaded'] as const)
    : (['entry', 'threaded'] as const);
  const cpu = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<string, number[]>;
  const tables: Record<string, PairwiseTable> = {};
  const run: Record<(typeof names)[number], () => PairwiseTable | Promise<PairwiseTable>> = {
    baseline: () => perPairArrays(metrics, options),
    serial: () => pairwiseTable(metrics, options),
    entry: () => buildPairwiseTable(metrics, { ...options, threads: 2 }),
    threaded: () => pairwiseTableThreaded(metrics, { ...options, threads: 2 }),
  };
  const steps: Record<string, () => Promise<number>> = {};
  for (const name of names) {
    steps[name] = () =>
      withCpu(cpu[name]!, async () => {
        tables[name] = await run[name]();
      });
  }
  const t = await interleaved(PASSES, steps);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${SYSTEMS} systems × ${LEVELS.length} metrics × ${ITEMS.toLocaleString('en-US')} items: ${tables.entry?.rows.length} comparisons (10,000 bootstrap resamples + 10,000 sign patterns each), ${PASSES} interleaved passes, load ${load} → ${loadAverage()}`,
  );
  // On a shared machine the wall time includes waiting for a core: the CPU time is what it costs.
  const label: Record<string, string> = {
    baseline: 'one thread, per-pair arrays (baseline)',
    serial: 'one thread (pairwiseTable)',
    entry: 'two threads (buildPairwiseTable, what commands call)',
    threaded: 'two threads (pairwiseTableThreaded)',
  };
  for (const name of names) {
    const wall = t[name]!;
    const verdict = (x: number) => (x <= 5000 ? 'met' : 'NOT met');
    const goal =
      name === 'entry' || name === 'threaded'
        ? `  (issue 28's goal ≤ 5,000 ms: ${verdict(wall.min)} on the minimum, ${verdict(wall.median)} on the median)`
        : '';
    console.log(`  ${label[name]}, wall: ${formatTiming(wall, 1, 'ms')}${goal}`);
    console.log(`  ${label[name]}, CPU: ${formatTiming(summarize(cpu[name]!), 1, 'ms')}`);
  }
  if (SERIAL) {
    const cpuOf = (n: string) => summarize(cpu[n]!);
    console.log(
      `  CPU, one thread / baseline: ${formatRatio(cpuOf('serial'), cpuOf('baseline'), { max: 0.8 })}`,
    );
    console.log(`  wall, two threads (entry) / one: ${formatRatio(t.entry!, t.serial!, { max: 0.6 })}`);
  }
  const same = names.every((n) => isDeepStrictEqual(tables[n], tables[names[0]]));
  console.log(
    `  the ${names.length} tables are ${same ? 'identical' : 'DIFFERENT'} (every figure, bit for bit)`,
  );
  if (!same) process.exitCode = 1;
  console.log(
    `  peak resident memory of the process: ${peakMb.toFixed(0)} MB (goal ≤ 500 MB: ${peakMb <= 500 ? 'met' : 'NOT met'}; includes the data)`,
  );
}
