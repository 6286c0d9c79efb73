import { Worker } from 'node:worker_threads';
import { CitegeistError } from '../../core/index.js';
import type { IndexWorkerRequest, IndexWorkerResponse } from './index-worker-protocol.js';

type Answer = Exclude<IndexWorkerResponse, { papers: number } | { coded: unknown } | { message: string }>;

/**
 * Runs the tasks of a parallel index build on `size` worker threads (`index-worker.ts`), each
 * worker taking the next task when it finishes one; answers come back in task order. `onPapers`
 * hears the papers finished as workers report them. The first failure (a coded error, an
 * exception, a worker that dies) fails the whole run: an index is committed whole or not at all.
 */
export async function runIndexWorkers(
  requests: readonly IndexWorkerRequest[],
  size: number,
  onPapers: (papers: number) => void,
): Promise<Answer[]> {
  const answers: Answer[] = new Array(requests.length);
  const workers: Worker[] = [];
  let next = 0;
  let failed = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      const post = (worker: Worker) => {
        if (failed) return;
        if (next >= requests.length) {
          if (running === 0) resolve();
          return;
        }
        running++;
        worker.postMessage(requests[next++]);
      };
      for (let i = 0; i < Math.min(size, requests.length); i++) {
        const worker = startWorker();
        workers.push(worker);
        worker.on('message', (response: IndexWorkerResponse) => {
          if ('papers' in response) return onPapers(response.papers);
          running--;
          if ('coded' in response)
            return fail(new CitegeistError(response.coded.code, response.coded.problem, response.coded.fix));
          if ('message' in response) return fail(new Error(`an index worker failed: ${response.message}`));
          answers[response.task] = response;
          post(worker);
        });
        // Decided at 'exit', after every message the worker sent (Node may emit 'error' first).
        let error: string | undefined;
        worker.on('error', (e) => {
          error ??= e.message;
        });
        worker.on('exit', (code) => {
          if (!failed && (next < requests.length || running > 0))
            fail(new Error(`an index worker stopped: ${error ?? `exit code ${code}`}`));
        });
        post(worker);
      }
      if (requests.length === 0) resolve();
    });
  } finally {
    failed = true;
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return answers;
}

function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  return new Worker(new URL(fromSources ? './index-worker.dev.mjs' : './index-worker.js', import.meta.url));
}
