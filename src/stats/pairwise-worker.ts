/**
 * Worker-thread entry of `pairwiseTableThreaded` and `buildPairwiseTable`: takes comparisons from the
 * shared counter until none is left, posting each back as it is done (see
 * `pairwise-table-threaded.ts`); to the port it was given when the parent waits without its event
 * loop, and then it says it stopped through the shared `stopped` counter, whatever happened.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import {
  compareTask,
  type PairwiseWorkerData,
  type PairwiseWorkerMessage,
} from './pairwise-table-threaded.js';

const { metrics, tasks, next, options, port, stopped } = workerData as PairwiseWorkerData;
const counter = new Int32Array(next);
const count = tasks.length / 3;
const out = port ?? parentPort;
const post = (message: PairwiseWorkerMessage) => out?.postMessage(message);
try {
  for (let k = Atomics.add(counter, 0, 1); k < count; k = Atomics.add(counter, 0, 1)) {
    post({ task: k, thread: threadId, comparison: compareTask(metrics, tasks, k, options) });
  }
  post({ done: true });
} catch (error) {
  post({ error: (error as Error).message });
} finally {
  if (stopped) {
    const flag = new Int32Array(stopped);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
}
