import { Worker } from 'node:worker_threads';
import { CitegeistError } from '../../core/index.js';
import type { IndexWorkerRequest, IndexWorkerResponse } from './index-worker-protocol.js';

type Answer = Exclude<IndexWorkerResponse, { papers: number } | { coded: unknown } | { message: string }>;

/**
 * The worker threads of a parallel index build (`index-worker.ts`), started at the first run and
 * kept for the build's passes. In a run, each worker takes the next task when it finishes one;
 * answers come back in task order, and `onPapers` hears the papers finished as workers report
 * them. The first failure (a coded error, an exception, a worker that dies) fails the run: an
 * index is committed whole or not at all.
 */
export class IndexWorkerPool {
  private workers: Worker[] = [];
  /** The run in progress: its message and exit handlers, replaced per run. */
  private current: {
    onMessage: (worker: Worker, response: IndexWorkerResponse) => void;
    onExit: (why: string) => void;
  } | null = null;

  constructor(readonly size: number) {}

  async run(requests: readonly IndexWorkerRequest[], onPapers: (papers: number) => void): Promise<Answer[]> {
    const answers: Answer[] = new Array(requests.length);
    if (requests.length === 0) return answers;
    while (this.workers.length < Math.min(this.size, requests.length)) this.workers.push(this.start());
    let next = 0;
    let running = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        let failed = false;
        const fail = (error: unknown) => {
          if (!failed) reject(error);
          failed = true;
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
        this.current = {
          onMessage: (worker, response) => {
            if ('papers' in response) return onPapers(response.papers);
            running--;
            if ('coded' in response)
              return fail(
                new CitegeistError(response.coded.code, response.coded.problem, response.coded.fix),
              );
            if ('message' in response) return fail(new Error(`an index worker failed: ${response.message}`));
            answers[response.task] = response;
            post(worker);
          },
          onExit: (why) => fail(new Error(`an index worker stopped: ${why}`)),
        };
        for (const worker of this.workers.slice(0, requests.length)) post(worker);
      });
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      this.current = null;
    }
    return answers;
  }

  /** Stops the workers (a failed run has stopped them already); a run in progress fails. */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    this.current?.onExit('the build stopped');
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private start(): Worker {
    const fromSources = import.meta.url.endsWith('.ts');
    const worker = new Worker(
      new URL(fromSources ? './index-worker.dev.mjs' : './index-worker.js', import.meta.url),
    );
    worker.on('message', (response: IndexWorkerResponse) => this.current?.onMessage(worker, response));
    // Decided at 'exit', after every message the worker sent (Node may emit 'error' first).
    let error: string | undefined;
    worker.on('error', (e) => {
      error ??= e.message;
    });
    worker.on('exit', (code) => {
      if (!this.workers.includes(worker)) return;
      this.workers = this.workers.filter((w) => w !== worker);
      this.current?.onExit(error ?? `exit code ${code}`);
    });
    return worker;
  }
}
