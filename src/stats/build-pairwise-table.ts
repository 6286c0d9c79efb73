import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import type { PairedComparison } from './paired-comparison.js';
import {
  type MetricScores,
  type PairwiseTable,
  type PairwiseTableOptions,
  pairwiseTable,
  tableOfComparisons,
} from './pairwise-table.js';
import {
  compareTask,
  MIN_WORK,
  type PairwiseWorkerMessage,
  planTable,
  startWorker,
} from './pairwise-table-threaded.js';

export interface BuildPairwiseOptions extends PairwiseTableOptions {
  /** Threads at most, this one included; default the machine's available parallelism. 1: this thread only. */
  threads?: number;
  /** Workers start only from this much work (Σ items + iterations over comparisons); default 2,000,000. */
  minWork?: number;
  /** Told which thread computed each comparison (its index in table order; 0: this thread, else the worker's thread id). */
  onComparison?: (index: number, thread: number) => void;
  /** Compare on this thread too (default true); false leaves every comparison to the workers (tests). */
  useThisThread?: boolean;
}

/** With no word from any worker for this long, this thread computes what is missing itself. */
const STALL_MS = 120_000;

/**
 * The one function every command builds its pairwise table with (leaderboard, report and its
 * `serve` rebuilds, compare, reports score and compare, qa-grid): `pairwiseTable`, bit for bit,
 * computed on this thread for a small table and shared with worker threads for a large one
 * (`minWork`: about a second of CPU on one thread). It stays synchronous: this thread takes
 * comparisons from the counter the workers share (`pairwiseTableThreaded`'s), then waits for the
 * workers without its event loop (`Atomics.wait`) and reads their results from a port
 * (`receiveMessageOnPort`). A worker that fails or never starts only leaves more to this thread:
 * what no worker returned is computed here, so the table is complete and the same either way.
 */
export function buildPairwiseTable(
  metrics: readonly MetricScores[],
  options: BuildPairwiseOptions = {},
): PairwiseTable {
  const { threads = availableParallelism(), minWork = MIN_WORK, onComparison, ...rest } = options;
  const { useThisThread = true, ...tableOptions } = rest;
  const plan = planTable(metrics, tableOptions);
  const { columns, tasks, count, compareOptions } = plan;
  const allowed = Math.max(1, Math.floor(threads));
  const workerCount = useThisThread ? Math.min(allowed - 1, count - 1) : Math.min(allowed, count);
  if (workerCount <= 0 || (useThisThread && plan.work < minWork)) {
    if (onComparison) for (let k = 0; k < count; k++) onComparison(k, 0);
    return pairwiseTable(metrics, tableOptions);
  }
  const next = new SharedArrayBuffer(4);
  const counter = new Int32Array(next);
  const stopped = new Int32Array(new SharedArrayBuffer(4));
  const results = new Array<PairedComparison | undefined>(count);
  const channels: { port: MessageChannel['port1']; worker: Worker }[] = [];
  for (let w = 0; w < workerCount; w++) {
    const { port1, port2 } = new MessageChannel();
    const data = {
      metrics: columns,
      tasks,
      next,
      options: compareOptions,
      port: port2,
      stopped: stopped.buffer,
    };
    channels.push({ port: port1, worker: startWorker(data) });
  }
  let have = 0;
  let heard = Date.now();
  for (
    let k = useThisThread ? Atomics.add(counter, 0, 1) : count;
    k < count;
    k = Atomics.add(counter, 0, 1)
  ) {
    results[k] = compareTask(columns, tasks, k, compareOptions);
    onComparison?.(k, 0);
    have++;
  }
  const read = () => {
    for (const { port } of channels) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const message = m.message as PairwiseWorkerMessage;
        if (!('task' in message) || results[message.task]) continue;
        results[message.task] = message.comparison;
        onComparison?.(message.task, message.thread);
        have++;
        heard = Date.now();
      }
    }
  };
  // Wait for the comparisons the workers took, or for every worker to stop (it may have failed).
  heard = Date.now();
  for (;;) {
    const stops = Atomics.load(stopped, 0);
    read();
    if (have === count || stops >= workerCount || Date.now() - heard > STALL_MS) break;
    Atomics.wait(stopped, 0, stops, 20);
  }
  // A worker posts before it says it stopped: its last results are in its port.
  read();
  for (const { port, worker } of channels) {
    port.close();
    void worker.terminate();
  }
  for (let k = 0; k < count; k++) {
    if (results[k]) continue;
    results[k] = compareTask(columns, tasks, k, compareOptions);
    onComparison?.(k, 0);
  }
  return tableOfComparisons(metrics, results as PairedComparison[], tableOptions);
}
