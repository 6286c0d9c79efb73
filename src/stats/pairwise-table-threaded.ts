/**
 * `pairwiseTable` on several threads. Each comparison of a table is a pure function of the two
 * systems' aligned scores and the options (every comparison uses the table's one seed), so which
 * thread computes it changes nothing: the table is the one `pairwiseTable` gives, bit for bit. The
 * comparisons are handed out one at a time from a shared counter, to this thread and to worker
 * threads alike, so a thread slowed by other jobs on the machine simply takes fewer of them.
 *
 * Workers are started only when the table is large enough to pay for them: a worker loads the
 * statistics modules before it compares anything (tens of milliseconds from the build, a few
 * hundred from the TypeScript sources), against about 40 ms of CPU per comparison of 50,000 items
 * with 10,000 resamples. Small tables are computed on this thread, as `pairwiseTable` does.
 */
import { availableParallelism } from 'node:os';
import { type MessagePort, Worker } from 'node:worker_threads';
import { compareAligned } from './aligned-comparison.js';
import { type AlignedScores, alignScores } from './pair-items.js';
import type { PairedComparison, PairedComparisonOptions } from './paired-comparison.js';
import {
  type MetricScores,
  type PairwiseTable,
  type PairwiseTableOptions,
  systemPairs,
  tableOfComparisons,
} from './pairwise-table.js';

export interface ThreadedPairwiseOptions extends PairwiseTableOptions {
  /** Threads at most, this one included; default the machine's available parallelism. 1: this thread only. */
  threads?: number;
  /**
   * Workers start only when Σ over comparisons of (items + iterations) reaches this (default
   * 2,000,000: about 40 comparisons of 50,000 items, a second or more of CPU). 0 always starts them.
   */
  minWork?: number;
  /**
   * Compare on this thread too (default true). false leaves it free: every comparison is made on
   * `threads` workers, however small the table, and this thread makes only those a failed worker
   * did not return.
   */
  useThisThread?: boolean;
  /** Told which thread computed each comparison (its index in table order; 0: this thread, else the worker's thread id). */
  onComparison?: (index: number, thread: number) => void;
}

/** What a worker is given: every metric's aligned columns, the comparisons, the shared counter. */
export interface PairwiseWorkerData {
  /** Per metric, each system's scores aligned on the metric's items (the ids stay here). */
  metrics: AlignedScores[][];
  /** Comparison k is metric tasks[3k] between systems tasks[3k + 1] and tasks[3k + 2]. */
  tasks: Int32Array;
  /** Int32Array over it: the next comparison to take (Atomics.add). */
  next: SharedArrayBuffer;
  options: PairedComparisonOptions;
  /**
   * Set by `buildPairwiseTable`, which waits without its event loop: results go to this port (read
   * with `receiveMessageOnPort`) instead of the parent port, and the worker adds 1 to this
   * Int32Array (and notifies it) when it stops, whether it finished or failed.
   */
  port?: MessagePort;
  stopped?: SharedArrayBuffer;
}

export type PairwiseWorkerMessage =
  | { task: number; thread: number; comparison: PairedComparison }
  | { done: true }
  | { error: string };

export const MIN_WORK = 2_000_000;

/** One comparison of the task list (the same call `pairwiseTable` makes for it). */
export function compareTask(
  metrics: PairwiseWorkerData['metrics'],
  tasks: Int32Array,
  k: number,
  options: PairedComparisonOptions,
): PairedComparison {
  const columns = metrics[tasks[3 * k]!]!;
  return compareAligned(columns[tasks[3 * k + 1]!]!, columns[tasks[3 * k + 2]!]!, options);
}

/** A table's comparisons as tasks over aligned columns, with the options every comparison gets. */
export interface TablePlan {
  columns: AlignedScores[][];
  tasks: Int32Array;
  count: number;
  /** Σ over comparisons of (items + iterations): what `minWork` is compared with. */
  work: number;
  compareOptions: PairedComparisonOptions;
}

/** Aligns each metric's systems once and lists the comparisons in table order (`systemPairs`). */
export function planTable(metrics: readonly MetricScores[], tableOptions: PairwiseTableOptions): TablePlan {
  const compareOptions: PairedComparisonOptions = {
    test: tableOptions.test ?? 'randomization',
    iterations: tableOptions.iterations ?? 10_000,
    seed: tableOptions.seed ?? 0,
    confidence: tableOptions.confidence ?? 0.95,
    alpha: tableOptions.alpha ?? 0.05,
    power: tableOptions.power ?? 0.8,
  };
  const aligned = metrics.map((m) => alignScores(m.systems.map((s) => s.scores)));
  const triples: number[] = [];
  let work = 0;
  metrics.forEach((m, mi) => {
    for (const [i, j] of systemPairs(m.systems.length)) {
      triples.push(mi, i, j);
      work += aligned[mi]!.ids.length + compareOptions.iterations!;
    }
  });
  const tasks = Int32Array.from(triples);
  return { columns: aligned.map((m) => m.columns), tasks, count: tasks.length / 3, work, compareOptions };
}

/**
 * The table `pairwiseTable(metrics, options)` gives, its comparisons spread over this thread and up
 * to `threads − 1` worker threads when the table is large (`minWork`). Should a worker fail, the
 * comparisons it did not return are computed here: the table is complete and the same either way.
 */
export async function pairwiseTableThreaded(
  metrics: readonly MetricScores[],
  options: ThreadedPairwiseOptions = {},
): Promise<PairwiseTable> {
  const { threads = availableParallelism(), minWork = MIN_WORK, onComparison, ...rest } = options;
  const { useThisThread = true, ...tableOptions } = rest;
  const { columns, tasks, count, work, compareOptions } = planTable(metrics, tableOptions);
  const results = new Array<PairedComparison | undefined>(count);
  const next = new SharedArrayBuffer(4);
  const counter = new Int32Array(next);
  const allowed = Math.max(1, Math.floor(threads));
  const here = useThisThread;
  const workerCount = Math.min(here ? allowed - 1 : allowed, here ? count - 1 : count);
  const finished: Promise<void>[] = [];
  if (workerCount > 0 && (work >= minWork || !here)) {
    const data: PairwiseWorkerData = { metrics: columns, tasks, next, options: compareOptions };
    for (let w = 0; w < workerCount; w++) finished.push(runWorker(data, results, onComparison));
  }
  // This thread takes comparisons from the same counter until none is left.
  for (let k = here ? Atomics.add(counter, 0, 1) : count; k < count; k = Atomics.add(counter, 0, 1)) {
    results[k] = compareTask(columns, tasks, k, compareOptions);
    onComparison?.(k, 0);
  }
  await Promise.all(finished);
  // A comparison a failed worker took but did not return is computed here.
  for (let k = 0; k < count; k++) {
    if (results[k]) continue;
    results[k] = compareTask(columns, tasks, k, compareOptions);
    onComparison?.(k, 0);
  }
  return tableOfComparisons(metrics, results as PairedComparison[], tableOptions);
}

/** Runs one worker to the end, recording its comparisons; resolves when it is done or has failed. */
function runWorker(
  data: PairwiseWorkerData,
  results: (PairedComparison | undefined)[],
  onComparison: ThreadedPairwiseOptions['onComparison'],
): Promise<void> {
  return new Promise((resolve) => {
    const worker = startWorker(data);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      resolve();
    };
    worker.on('message', (message: PairwiseWorkerMessage) => {
      if ('task' in message) {
        results[message.task] = message.comparison;
        onComparison?.(message.task, message.thread);
      } else finish();
    });
    worker.on('error', finish);
    worker.on('exit', finish);
  });
}

/**
 * A comparison worker; from the TypeScript sources (tests, benchmarks) it starts through tsx. Its
 * young generation is kept small: it holds one comparison's arrays at a time, and the default
 * would add tens of megabytes to the process's peak.
 */
export function startWorker(data: PairwiseWorkerData): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './pairwise-worker.dev.mjs' : './pairwise-worker.js', import.meta.url);
  return new Worker(entry, {
    workerData: data,
    ...(data.port ? { transferList: [data.port] } : {}),
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
}
