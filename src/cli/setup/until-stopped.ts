import type { QueueWorker } from '../../queue/index.js';

/** How often a busy worker prints what it did. */
export const REPORT_EVERY_MS = 30_000;

/**
 * Runs a started worker until SIGINT/SIGTERM: the first lets calls in flight finish, a second
 * gives them up (they are then retried elsewhere). Prints what it did every REPORT_EVERY_MS.
 */
export function untilStopped(worker: QueueWorker, say: (line: string) => void): Promise<void> {
  let last = { ...worker.tally };
  const report = setInterval(() => {
    const t = worker.tally;
    if (t.done + t.failed === last.done + last.failed) return;
    say(
      `${t.done - last.done} calls done (${t.failed - last.failed} failed, ${t.cached - last.cached} from cache) in the last ${REPORT_EVERY_MS / 1000} s`,
    );
    last = { ...t };
  }, REPORT_EVERY_MS);
  return new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) {
        say('stopping now; calls in flight go to other workers');
        void worker.close(true).then(resolve);
        return;
      }
      stopping = true;
      say('finishing the calls in flight (again to stop at once)');
      clearInterval(report);
      void worker.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }).finally(() => {
    clearInterval(report);
  });
}
