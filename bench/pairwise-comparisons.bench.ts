/**
 * `npm run bench -- pairwise-comparisons` (issue 28 goal: ≤ 5 s on 2 cores, ≤ 500 MB): the pairwise
 * table of 10 systems × 5 metrics × 50,000 shared items — every pair (45 × 5 = 225 comparisons),
 * each with a 10,000-resample paired bootstrap (percentile + BCa) and a 10,000-pattern
 * randomization test, Holm over the table. The metrics are per-item ratios of small counts, as the
 * ResearchQA metrics are (values k/4, k/3, k/2, 0/1, and k/m for m ≤ 6 rounded to 3 decimals), 2% of items failed
 * and 5% not applicable per system. Time of the whole table per pass (min, median) and the process's
 * peak resident memory. The table is made on one thread (`pairwiseTable`, the baseline) and on
 * two (`pairwiseTableThreaded`) in interleaved passes, with their wall and CPU times (CPU: all
 * threads of the process) and the check that both give the same table, bit for bit.
 * BENCH_ITEMS, BENCH_SYSTEMS and BENCH_PASSES change the size; BENCH_SERIAL=0 leaves the baseline
 * out (the peak memory is then the threaded table's alone).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  createRandom,
  type ItemScore,
  type MetricScores,
  type PairwiseTable,
  pairwiseTable,
  pairwiseTableThreaded,
} from '../src/stats/index.js';
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

export default async function main(): Promise<void> {
  const metrics = build();
  const load = loadAverage();
  const options = { test: 'randomization', iterations: 10_000, seed: 28 } as const;
  const cpu = { serial: [] as number[], threaded: [] as number[] };
  let serial: PairwiseTable | null = null;
  let threaded: PairwiseTable | null = null;
  const steps: Record<string, () => Promise<number>> = {};
  if (SERIAL) {
    steps.serial = () =>
      withCpu(cpu.serial, () => {
        serial = pairwiseTable(metrics, options);
      });
  }
  steps.threaded = () =>
    withCpu(cpu.threaded, async () => {
      threaded = await pairwiseTableThreaded(metrics, { ...options, threads: 2 });
    });
  const t = await interleaved(PASSES, steps);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const table = threaded as PairwiseTable | null;
  console.log(
    `${SYSTEMS} systems × ${LEVELS.length} metrics × ${ITEMS.toLocaleString('en-US')} items: ${table?.rows.length} comparisons (10,000 bootstrap resamples + 10,000 sign patterns each), ${PASSES} interleaved passes, load ${load} → ${loadAverage()}`,
  );
  // On a shared machine the wall time includes waiting for a core: the CPU time is what it costs.
  if (SERIAL) {
    console.log(`  one thread (pairwiseTable), wall: ${formatTiming(t.serial!, 1, 'ms')}`);
    console.log(`  one thread, CPU: ${formatTiming(summarize(cpu.serial), 1, 'ms')}`);
  }
  console.log(
    `  two threads (pairwiseTableThreaded), wall: ${formatTiming(t.threaded!, 1, 'ms')}  (goal ≤ 5,000 ms)`,
  );
  console.log(`  two threads, CPU (both threads): ${formatTiming(summarize(cpu.threaded), 1, 'ms')}`);
  if (SERIAL) {
    console.log(`  wall, two threads / one: ${formatRatio(t.threaded!, t.serial!, { max: 0.6 })}`);
    const same = isDeepStrictEqual(serial, threaded);
    console.log(`  the two tables are ${same ? 'identical' : 'DIFFERENT'} (every figure, bit for bit)`);
    if (!same) process.exitCode = 1;
  }
  console.log(
    `  peak resident memory of the process: ${peakMb.toFixed(0)} MB (goal ≤ 500 MB; includes the data)`,
  );
}
