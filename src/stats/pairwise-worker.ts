/**
 * Worker-thread entry of `pairwiseTableThreaded`: takes comparisons from the shared counter until
 * none is left, posting each back as it is done (see `pairwise-table-threaded.ts`).
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import {
  compareTask,
  type PairwiseWorkerData,
  type PairwiseWorkerMessage,
} from './pairwise-table-threaded.js';

const { metrics, tasks, next, options } = workerData as PairwiseWorkerData;
const counter = new Int32Array(next);
const count = tasks.length / 3;
const post = (message: PairwiseWorkerMessage) => parentPort?.postMessage(message);
try {
  for (let k = Atomics.add(counter, 0, 1); k < count; k = Atomics.add(counter, 0, 1)) {
    post({ task: k, thread: threadId, comparison: compareTask(metrics, tasks, k, options) });
  }
  post({ done: true });
} catch (error) {
  post({ error: (error as Error).message });
}
