// Starts the pairwise comparison worker from the TypeScript sources (tests and benchmarks run without a build).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

try {
  register();
  await import('./pairwise-worker.js');
} catch (error) {
  // The worker could not load: a parent waiting on `stopped` must not wait for it.
  if (workerData?.stopped) {
    const flag = new Int32Array(workerData.stopped);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  }
  throw error;
}
