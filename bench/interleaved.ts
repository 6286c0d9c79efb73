/**
 * Interleaved timing for benchmarks on a shared machine: every system runs once per pass, passes
 * repeat, and each system reports the minimum (closest to its unloaded speed) and the median over
 * passes, with the load average before and after, so a ratio is read against the load it was
 * measured under.
 */
import { loadavg } from 'node:os';

export interface Timing {
  min: number;
  median: number;
  all: number[];
}

export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** Runs each named step once per pass, `passes` times, in the given order; times are in ms. */
export async function interleaved(
  passes: number,
  steps: Record<string, () => number | Promise<number>>,
): Promise<Record<string, Timing>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
  for (let p = 0; p < passes; p++) {
    for (const [name, step] of Object.entries(steps)) times[name]?.push(await step());
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, all]) => {
      const sorted = [...all].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      const median =
        sorted.length % 2
          ? (sorted[mid] as number)
          : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
      return [name, { min: sorted[0] ?? Number.NaN, median, all }];
    }),
  );
}

/** Milliseconds a synchronous function takes. */
export function timed(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

/** "3.21 ms (median 3.40)": a timing per unit (e.g. per query). */
export function formatTiming(t: Timing, per = 1, unit = 'ms'): string {
  return `${(t.min / per).toFixed(3)} ${unit} (median ${(t.median / per).toFixed(3)})`;
}

/** "1.21× (median 1.30×; goal ≤ 1.5×: met)": a ratio of two timings with its goal. */
export function formatRatio(ours: Timing, reference: Timing, goal: { max?: number; min?: number }): string {
  const r = ours.min / reference.min;
  const m = ours.median / reference.median;
  const met = (x: number) =>
    (goal.max === undefined || x <= goal.max) && (goal.min === undefined || x >= goal.min);
  const goalText = goal.max !== undefined ? `≤ ${goal.max}×` : `≥ ${goal.min}×`;
  return `${r.toFixed(2)}× on minima (median ${m.toFixed(2)}×; goal ${goalText}: ${met(r) ? 'met' : 'NOT met'} on minima, ${met(m) ? 'met' : 'NOT met'} on medians)`;
}
