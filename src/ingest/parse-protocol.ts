import { Worker } from 'node:worker_threads';
import { CitegeistError, type Document, type ErrorCode } from '../core/index.js';
import type { IngestContext } from './ingest-context.js';

/** One file to parse, its bytes transferred to the worker. */
export interface ParseRequest {
  task: number;
  bytes: ArrayBuffer;
  context: IngestContext;
}

export type ParseResponse =
  | { task: number; docs: Document[] }
  | { task: number; coded: { code: ErrorCode; problem: string; fix: string } }
  | { task: number; message: string };

/**
 * Parses files on `size` worker threads (`parse-worker.ts`), one file per worker at a time: what
 * `readDocumentBytes` does, off the writer's thread. A coded parse error comes back as the same
 * coded error; a worker that dies fails the file it was on and is replaced.
 */
export class ParsePool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (d: Document[]) => void; reject: (e: unknown) => void }
  >();
  private readonly busy = new Map<Worker, number>();
  private next = 0;
  private closed = false;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) this.idle.push(this.start());
  }

  private start(): Worker {
    const fromSources = import.meta.url.endsWith('.ts');
    const entry = new URL(fromSources ? './parse-worker.dev.mjs' : './parse-worker.js', import.meta.url);
    const worker = new Worker(entry);
    worker.on('message', (response: ParseResponse) => {
      this.busy.delete(worker);
      const p = this.pending.get(response.task);
      this.pending.delete(response.task);
      if (p) {
        if ('docs' in response) p.resolve(response.docs);
        else if ('coded' in response)
          p.reject(new CitegeistError(response.coded.code, response.coded.problem, response.coded.fix));
        else p.reject(new Error(response.message));
      }
      this.release(worker);
    });
    const lost = (why: string) => {
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      if (task !== undefined) {
        this.pending.get(task)?.reject(new Error(`the parse worker stopped: ${why}`));
        this.pending.delete(task);
      }
      if (!this.closed) this.release(this.start());
    };
    // Decided at 'exit': Node delivers every message a worker sent before its 'exit', but may emit
    // 'error' first, while the answer to its task is still on its way. A worker that died idle is
    // taken out of the idle list too (a task posted to it would never be answered).
    let error: string | undefined;
    worker.on('error', (e) => {
      error ??= e.message;
    });
    worker.on('exit', (code) => {
      if (this.closed) return;
      const idle = this.idle.indexOf(worker);
      if (idle >= 0) this.idle.splice(idle, 1);
      lost(error ?? `exit code ${code}`);
    });
    return worker;
  }

  private release(worker: Worker): void {
    this.idle.push(worker);
    this.waiting.shift()?.();
  }

  /** Parses one file's bytes (they are transferred: the caller must not use them after). */
  async parse(bytes: Uint8Array, context: IngestContext): Promise<Document[]> {
    while (this.idle.length === 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const worker = this.idle.pop() as Worker;
    const task = this.next++;
    const copy =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return new Promise<Document[]>((resolve, reject) => {
      this.pending.set(task, { resolve, reject });
      this.busy.set(worker, task);
      const request: ParseRequest = { task, bytes: copy.buffer as ArrayBuffer, context };
      worker.postMessage(request, [copy.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }
}
