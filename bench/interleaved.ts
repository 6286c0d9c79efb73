/**
 * Interleaved timing for benchmarks on a shared machine: every system runs once per pass, passes
 * repeat, and each system reports the minimum (closest to its unloaded speed) and the median over
 * passes, with the load average before and after, so a ratio is read against the load it was
 * measured under.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

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

/** Min and median of some values (ms), as `interleaved` reports each step. */
export function summarize(all: number[]): Timing {
  const sorted = [...all].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { min: sorted[0] ?? Number.NaN, median, all };
}

/**
 * Times `work` in this process: returns its wall time (ms) and records its CPU time (ms, user +
 * system, all threads of the process) in `cpu`, so a step of `interleaved` reports both.
 */
export async function withCpu(cpu: number[], work: () => unknown): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  return ms;
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
  return Object.fromEntries(Object.entries(times).map(([name, all]) => [name, summarize(all)]));
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

/** What a timed child process used: wall time, CPU time (all its threads) and peak memory. */
export interface ProcessUsage {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
}

/**
 * Runs a command to completion and measures it: wall time here, CPU time and peak RSS as the
 * process reports them in the file named by BENCH_USAGE_FILE (Node processes get
 * `bench/report-usage.mjs` preloaded with `--import`; other programs must write it themselves).
 * Throws with the command's stderr when it fails.
 */
export function timedProcess(command: string, args: string[], options: { cwd?: string } = {}): ProcessUsage {
  const usageFile = join(mkdtempSync(join(tmpdir(), 'citegeist-bench-usage-')), 'usage.json');
  const node = command === process.execPath;
  const argv = node ? ['--import', pathToFileURL(join(HERE, 'report-usage.mjs')).href, ...args] : args;
  const t0 = performance.now();
  const out = spawnSync(command, argv, {
    cwd: options.cwd,
    env: { ...process.env, BENCH_USAGE_FILE: usageFile },
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t0;
  if (out.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${out.status ?? out.signal}): ${out.stderr.slice(-2000)}`,
    );
  }
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as {
    user_s: number;
    system_s: number;
    max_rss_kb: number;
  };
  rmSync(dirname(usageFile), { recursive: true, force: true });
  return { ms, cpuMs: (usage.user_s + usage.system_s) * 1000, maxRssMb: usage.max_rss_kb / 1024 };
}
