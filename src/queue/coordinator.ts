import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  type CallJob,
  type CallReply,
  CallReplySchema,
  JOB_FORMAT,
  jobIdFor,
  KEY_PREFIX,
  type QueueRun,
  queueNameFor,
  registryKeys,
} from './call-job.js';
import { loadBullmq, openRedis } from './redis-client.js';
import { connectionOptions, type RedisTarget } from './redis-target.js';
import { RunTally } from './run-tally.js';

/** Job attempts when a worker reports a failure worth another try (each attempt retries inside too). */
export const JOB_ATTEMPTS = 3;
/** Finished jobs are kept this long, so a restarted coordinator collects results it had not written. */
const KEEP_COMPLETED_S = 24 * 3600;
const KEEP_FAILED_S = 7 * 24 * 3600;
/** Outstanding jobs are looked up this often in case their completion event was missed. */
const SWEEP_MS = 5000;

export interface CoordinatorOptions {
  /**
   * A queue-wide limit for every model queue this coordinator uses (BullMQ's global rate limit:
   * at most `max` calls start per `durationMs` across all workers); null removes one, undefined
   * leaves whatever is set.
   */
  rateLimit?: { max: number; durationMs: number } | null;
  /** First wait before a job that failed is tried again (default 2 s, doubled per attempt). */
  retryDelayMs?: number;
  /** Where connection trouble is reported (the run waits for Redis to come back). */
  onWarning?: (message: string) => void;
}

interface ModelQueue {
  name: string;
  model: string;
  queue: Queue;
  events: QueueEvents;
}

interface Waiter {
  promise: Promise<CallReply>;
  resolve: (reply: CallReply) => void;
  queue: ModelQueue;
  data: CallJob;
  since: number;
  run: RunTally;
}

/**
 * The coordinator's side of the queue: enqueues one job per model call under an id derived from
 * the run and the request, and hands each result back as it arrives (BullMQ's completion events,
 * with a periodic look-up as a safety net). Jobs a previous attempt of the run left in Redis are
 * reused: a finished result is taken as it is, a failed one is run again (a resume redoes failures).
 * Each run's progress is published for `queue status`.
 */
export class QueueCoordinator {
  readonly session = randomUUID();
  private client: Redis | undefined;
  private started: Promise<void> | undefined;
  private readonly queues = new Map<string, Promise<ModelQueue>>();
  private readonly waiting = new Map<string, Waiter>();
  private readonly runs = new Map<string, RunTally>();
  private timers: NodeJS.Timeout[] = [];
  private lastWarning = 0;

  constructor(
    readonly target: RedisTarget,
    private readonly options: CoordinatorOptions = {},
  ) {}

  /** Connects (once); rejects with QUEUE_UNREACHABLE or QUEUE_AUTH before anything is enqueued. */
  start(): Promise<void> {
    this.started ??= this.open();
    return this.started;
  }

  /** Announces a run in `queue status` (its label and kind) before its first call. */
  async announce(run: QueueRun): Promise<void> {
    await this.start();
    this.tally(run);
    await this.flush();
  }

  /** Enqueues one call (or finds it from an earlier attempt) and resolves with its reply. */
  async submit(
    call: Pick<CallJob, 'model' | 'run' | 'request' | 'schema' | 'cacheMode'>,
    signal?: AbortSignal,
  ): Promise<CallReply> {
    await this.start();
    const data: CallJob = { format: JOB_FORMAT, session: this.session, ...call };
    const id = jobIdFor(data);
    // The same call twice at once (two identical rows) is one job with one reply.
    const pending = this.waiting.get(id);
    if (pending) return abortable(pending.promise, signal);
    const queue = await this.queueFor(call.model);
    let resolve!: (reply: CallReply) => void;
    const promise = new Promise<CallReply>((res) => {
      resolve = res;
    });
    const run = this.tally(call.run);
    // Registered before the job is added, so a completion event cannot come first.
    this.waiting.set(id, { promise, resolve, queue, data, since: Date.now(), run });
    run.enqueued();
    try {
      await this.enqueue(queue, data, id);
    } catch (error) {
      this.waiting.delete(id);
      run.settled(null);
      throw error;
    }
    return abortable(promise, signal);
  }

  /** Stops publishing, closes the connections; outstanding jobs stay in Redis for the next attempt. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    if (!this.started) return;
    await this.started.catch(() => undefined);
    for (const run of this.runs.values()) run.finish(this.waiting.size === 0);
    await this.flush().catch(() => undefined);
    const queues = await Promise.allSettled(this.queues.values());
    await Promise.allSettled(
      queues.flatMap((q) =>
        q.status === 'fulfilled' ? [q.value.events.close(), q.value.queue.close()] : [],
      ),
    );
    await this.client?.quit().catch(() => this.client?.disconnect());
  }

  private async open(): Promise<void> {
    this.client = await openRedis(this.target, 'coordinator');
    this.client.on('error', (e: Error) => this.warn(e));
    this.timers.push(
      setInterval(() => void this.flush().catch((e: Error) => this.warn(e)), 1000).unref(),
      setInterval(() => void this.sweep().catch((e: Error) => this.warn(e)), SWEEP_MS).unref(),
    );
  }

  private queueFor(model: string): Promise<ModelQueue> {
    const name = queueNameFor(model);
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.openQueue(name, model);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async openQueue(name: string, model: string): Promise<ModelQueue> {
    const { Queue, QueueEvents } = await loadBullmq();
    const connection = connectionOptions(this.target);
    const queue = new Queue(name, { connection, prefix: KEY_PREFIX });
    const events = new QueueEvents(name, { connection, prefix: KEY_PREFIX });
    queue.on('error', (e: Error) => this.warn(e));
    events.on('error', (e: Error) => this.warn(e));
    events.on('completed', ({ jobId, returnvalue }) => this.finish(jobId, parseReply(returnvalue)));
    events.on('failed', ({ jobId, failedReason }) => this.finish(jobId, jobFailure(failedReason)));
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    await this.client?.hset(registryKeys.models, name, model);
    const limit = this.options.rateLimit;
    if (limit) await queue.setGlobalRateLimit(limit.max, limit.durationMs);
    else if (limit === null) await queue.removeGlobalRateLimit();
    return { name, model, queue, events };
  }

  private async enqueue(mq: ModelQueue, data: CallJob, id: string, again = 0): Promise<void> {
    await mq.queue.add('call', data, {
      jobId: id,
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.options.retryDelayMs ?? 2000 },
      removeOnComplete: { age: KEEP_COMPLETED_S },
      removeOnFail: { age: KEEP_FAILED_S },
    });
    await this.reconcile(mq, data, id, again);
  }

  /**
   * A job of this id may already have been there (an earlier attempt of the run enqueued it): a
   * result is taken as it is; a failure of an earlier attempt is run again, as a resume redoes
   * failed rows; one still waiting or running is simply awaited.
   */
  private async reconcile(mq: ModelQueue, data: CallJob, id: string, again: number): Promise<void> {
    const state = await mq.queue.getJobState(id);
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return;
    const job = state === 'unknown' ? undefined : await mq.queue.getJob(id);
    if (!job) {
      // Removed between the add and the look-up (its age ran out): add it anew, once.
      if (again < 1) await this.enqueue(mq, data, id, again + 1);
      return;
    }
    const mine = (job.data as Partial<CallJob> | undefined)?.session === this.session;
    if (state === 'completed') {
      const reply = parseReply(job.returnvalue);
      if (reply.ok || mine) return this.finish(id, reply);
      await job.remove();
      if (again < 1) await this.enqueue(mq, data, id, again + 1);
      return;
    }
    if (mine) return this.finish(id, jobFailure(job.failedReason));
    await job.updateData(data);
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
  }

  private finish(jobId: string, reply: CallReply): void {
    const waiter = this.waiting.get(jobId);
    if (!waiter) return;
    this.waiting.delete(jobId);
    waiter.run.settled(reply);
    waiter.resolve(reply);
  }

  /** Looks up jobs outstanding for a while: a completion event lost in a Redis outage still arrives. */
  private async sweep(): Promise<void> {
    const due = [...this.waiting.entries()].filter(([, w]) => Date.now() - w.since >= SWEEP_MS);
    for (const [id, w] of due) {
      const state = await w.queue.queue.getJobState(id);
      if (state === 'completed' || state === 'failed') {
        const job = await w.queue.queue.getJob(id);
        if (job)
          this.finish(id, state === 'completed' ? parseReply(job.returnvalue) : jobFailure(job.failedReason));
      } else if (state === 'unknown') {
        await this.enqueue(w.queue, w.data, id);
      }
    }
  }

  private tally(run: QueueRun): RunTally {
    let t = this.runs.get(run.id);
    if (!t) {
      t = new RunTally(run, `${hostname()} pid ${process.pid}`);
      this.runs.set(run.id, t);
    }
    return t;
  }

  /** Publishes each run's counts (`queue status` reads them). */
  private async flush(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const pipeline = client.pipeline();
    for (const run of this.runs.values()) run.publish(pipeline);
    await pipeline.exec();
  }

  private warn(error: Error): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.options.onWarning?.(
      `queue: Redis at ${this.target.display}: ${error.message}; outstanding calls wait for it to come back`,
    );
  }
}

/** A reply as published by a worker; anything else is a failed call, never a crash. */
function parseReply(value: unknown): CallReply {
  const parsed = CallReplySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  return jobFailure(
    'the worker returned something that is not a call reply (another program on this queue?)',
  );
}

/** A job BullMQ gave up on, as a failed call whose reason says why. */
function jobFailure(reason: string | undefined): CallReply {
  const why = reason ?? 'unknown reason';
  const text = /stalled more than allowable limit/.test(why)
    ? `workers stopped while running this call until it was given up (a poison job?): ${why}`
    : `queue job failed after ${JOB_ATTEMPTS} attempts: ${why}`;
  return { ok: false, reason: text, usage: null, latencyMs: 0, retries: 0, cached: false };
}

/** The reply, or the caller's cancellation (the job itself stays queued for a later attempt). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
