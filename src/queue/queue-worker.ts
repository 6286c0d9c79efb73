import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isCitegeistError } from '../core/index.js';
import type { CacheMode, GenerateRequest, GenerateResult, TransportProvider } from '../llm/index.js';
import {
  type CallJob,
  CallJobSchema,
  type CallReply,
  KEY_PREFIX,
  queueNameFor,
  registryKeys,
} from './call-job.js';
import { loadBullmq, openRedis } from './redis-client.js';
import { connectionOptions, type RedisTarget } from './redis-target.js';
import { countCompleted } from './run-tally.js';

export interface QueueWorkerOptions {
  target: RedisTarget;
  /** Model ids this worker serves; null: every model a coordinator enqueues for (and it can serve). */
  models: string[] | null;
  /** Calls at once per model. */
  concurrency: number;
  /**
   * The provider of a model with this worker's policies: its cache, retries, limiter, budget and
   * the keys in its own environment. Throws a CitegeistError when this worker cannot serve it.
   */
  provider: (model: string, cacheMode: CacheMode) => TransportProvider;
  /** This worker's name in `queue status` and in replies (host and pid). */
  name: string;
  /** A job whose worker stops renewing its lock for this long is given to another (default 30 s). */
  lockMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  stalledCheckMs?: number;
  /** Stalls after which a job is given up as a poison job (default 2). */
  maxStalls?: number;
  /** How often the registry is read for new models when `models` is null (default 2 s). */
  discoverMs?: number;
  log: (line: string) => void;
}

export interface WorkerTally {
  done: number;
  failed: number;
  cached: number;
}

/**
 * A queue worker: one BullMQ worker per model queue it serves, each job one call through the same
 * LLM layer as a local run (cache, retries, limiter, budget). A reply, or a failure no retry can
 * mend (a refusal, a 400, a spent budget), completes the job; a failure worth another try (the
 * API still overloaded after this worker's retries, this worker lacking the model's key) is
 * thrown, so BullMQ tries again later, perhaps on another worker.
 */
export class QueueWorker {
  readonly tally: WorkerTally = { done: 0, failed: 0, cached: 0 };
  private readonly workers = new Map<string, Worker>();
  private readonly refused = new Set<string>();
  private client: Redis | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly options: QueueWorkerOptions) {}

  /** Connects and starts serving; rejects with a coded error (unreachable, no key for a named model). */
  async start(): Promise<void> {
    if (this.options.models) for (const m of this.options.models) this.options.provider(m, 'normal');
    this.client = await openRedis(this.options.target, 'worker');
    this.client.on('error', (e: Error) => this.options.log(`Redis: ${e.message} (reconnecting)`));
    if (this.options.models) {
      for (const model of this.options.models) {
        await this.client.hset(registryKeys.models, queueNameFor(model), model);
        await this.serve(model);
      }
      return;
    }
    await this.discover();
    this.timer = setInterval(
      () => void this.discover().catch(() => undefined),
      this.options.discoverMs ?? 2000,
    );
  }

  /** Models served now. */
  get serving(): string[] {
    return [...this.workers.keys()];
  }

  /** Stops taking jobs and waits for the calls in flight to finish (`force`: gives them up at once). */
  async close(force = false): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.workers.values()].map((w) => w.close(force)));
    await this.client?.quit().catch(() => this.client?.disconnect());
  }

  private async discover(): Promise<void> {
    const models = (await this.client?.hgetall(registryKeys.models)) ?? {};
    for (const model of Object.values(models)) {
      if (this.workers.has(model) || this.refused.has(model) || this.closing) continue;
      try {
        this.options.provider(model, 'normal');
      } catch (error) {
        if (!isCitegeistError(error)) throw error;
        this.refused.add(model);
        this.options.log(`not serving ${model}: ${error.problem}`);
        continue;
      }
      await this.serve(model);
    }
  }

  private async serve(model: string): Promise<void> {
    const { Worker, UnrecoverableError } = await loadBullmq();
    const worker = new Worker(queueNameFor(model), (job: Job) => this.process(job, UnrecoverableError), {
      connection: connectionOptions(this.options.target),
      prefix: KEY_PREFIX,
      concurrency: this.options.concurrency,
      lockDuration: this.options.lockMs ?? 30_000,
      stalledInterval: this.options.stalledCheckMs ?? 30_000,
      maxStalledCount: this.options.maxStalls ?? 2,
      name: this.options.name,
    });
    worker.on('error', (e: Error) => this.options.log(`${model}: ${e.message}`));
    worker.on('failed', (job, e) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        this.options.log(`${model}: gave up job ${job.id}: ${e.message}`);
    });
    this.workers.set(model, worker);
    this.options.log(`serving ${model} (${this.options.concurrency} calls at once)`);
  }

  private async process(job: Job, UnrecoverableError: new (message: string) => Error): Promise<CallReply> {
    const parsed = CallJobSchema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(
        `job ${job.id} is not a citegeist call of format 1 (${parsed.error.issues[0]?.message}); is another program using this queue?`,
      );
    }
    const data = parsed.data;
    const result = await this.provider(data).call(generateRequestOf(data.request), data.schema);
    if (!result.ok && result.retryable) {
      this.tally.failed++;
      throw new Error(`${result.reason} (worker ${this.options.name})`);
    }
    if (result.ok) this.tally.done++;
    else this.tally.failed++;
    if (result.cached) this.tally.cached++;
    if (result.ok && this.client) {
      const pipeline = this.client.multi();
      countCompleted(pipeline, data.run.id, result.cached === true);
      // Bookkeeping only: a Redis hiccup here must not fail (and so repeat) a call already answered.
      await pipeline
        .exec()
        .catch((e: Error) => this.options.log(`could not count job ${data.run.id}: ${e.message}`));
    }
    return replyOf(result, this.options.name);
  }

  private provider(data: CallJob): TransportProvider {
    try {
      return this.options.provider(data.model, data.cacheMode);
    } catch (error) {
      // This worker cannot serve the model (no key here): another worker may.
      throw new Error(`worker ${this.options.name} cannot serve ${data.model}: ${(error as Error).message}`);
    }
  }
}

function replyOf(result: GenerateResult, worker: string): CallReply {
  const meta = { latencyMs: result.latencyMs, retries: result.retries, cached: result.cached, worker };
  if (result.ok) return { ok: true, text: result.text, usage: result.usage, ...meta };
  return {
    ok: false,
    reason: result.reason,
    ...(result.raw !== undefined ? { raw: result.raw } : {}),
    usage: null,
    ...meta,
  };
}

/** A job's request as the LLM layer takes it (absent settings left out, not undefined). */
function generateRequestOf(r: CallJob['request']): GenerateRequest {
  const out: GenerateRequest = { messages: r.messages };
  if (r.temperature !== undefined) out.temperature = r.temperature;
  if (r.maxTokens !== undefined) out.maxTokens = r.maxTokens;
  if (r.seed !== undefined) out.seed = r.seed;
  if (r.timeoutMs !== undefined) out.timeoutMs = r.timeoutMs;
  return out;
}
