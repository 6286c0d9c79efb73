import { hostname } from 'node:os';
import {
  Budget,
  type CacheMode,
  createProvider,
  modelId,
  parseModelString,
  type ReplyCache,
  ResponseCache,
  type TransportProvider,
} from '../../llm/index.js';
import { QueueWorker, RedisReplyCache } from '../../queue/index.js';
import type { RegisterCommand } from '../context.js';
import { resolveLlmSettings, withEnvPassword } from '../llm-options.js';
import { parseIntOption } from '../setup/option-parsers.js';

interface WorkerFlags {
  queue: string;
  models?: string[];
  concurrency?: string;
  budget?: string;
  cache?: boolean | string;
  lockMs: number;
  stalledCheckMs: number;
  maxStalls: number;
}

/** How often a busy worker prints what it did. */
const REPORT_EVERY_MS = 30_000;

/**
 * `citegeist worker --queue redis://…`: takes model calls from the queue and makes them through
 * the same LLM layer as a local run (this machine's keys, cache, retries and limiter), until
 * SIGINT or SIGTERM (a second one stops at once; its calls are then retried elsewhere).
 */
export const registerWorker: RegisterCommand = (program, ctx) => {
  program
    .command('worker')
    .description(
      'take model calls from a queue (`--queue` on answer, grade, …) and make them (docs/scale-out.md)',
    )
    .requiredOption('--queue <url>', 'the Redis the coordinators enqueue into: redis://host:port[/db]')
    .option(
      '--models <model...>',
      'serve only these models (default: every model enqueued that this machine has keys for)',
    )
    .option('--concurrency <n>', 'calls at once per model (default 4)')
    .option('--budget <usd>', "this worker's own spending cap (the run's budget is held by its coordinator)")
    .option(
      '--cache <file|url>',
      'response cache: a SQLite file (default .citegeist/cache.sqlite) or redis://… shared by workers',
    )
    .option('--no-cache', 'neither read nor write a response cache')
    .option(
      '--lock-ms <ms>',
      'a call whose worker stops renewing its lock this long goes to another worker',
      parseIntOption('--lock-ms', 100),
      30_000,
    )
    .option(
      '--stalled-check-ms <ms>',
      'how often calls abandoned by a stopped worker are looked for',
      parseIntOption('--stalled-check-ms', 100),
      30_000,
    )
    .option(
      '--max-stalls <n>',
      'a call abandoned this many times is given up as a poison job (failed, with the reason)',
      parseIntOption('--max-stalls', 0),
      2,
    )
    .action(async (flags: WorkerFlags) => {
      const settings = resolveLlmSettings(
        { queue: flags.queue, ...pick(flags, 'concurrency', 'budget', 'cache') },
        // A worker's --concurrency is per model on this machine: the queue default (calls across
        // all workers) is the coordinator's.
        { ...ctx.config(), concurrency: ctx.config().concurrency ?? 4 },
        ctx.io.cwd,
      );
      const target = withEnvPassword(settings.queue!, ctx.io.env);
      const say = (line: string) => ctx.io.err(`worker ${name}: ${line}\n`);
      const name = `${hostname().replace(/\s+/g, '-')}-pid${process.pid}`;
      const cache: (ReplyCache & { close(): void }) | null = settings.cacheRedis
        ? new RedisReplyCache(withEnvPassword(settings.cacheRedis, ctx.io.env), say)
        : settings.cachePath
          ? new ResponseCache(settings.cachePath, (m) => say(`warning: ${m}`))
          : null;
      if (cache instanceof RedisReplyCache) await cache.open();
      const budget = settings.budgetUsd === null ? null : new Budget(settings.budgetUsd);
      const providers = new Map<string, TransportProvider>();
      const provider = (model: string, mode: CacheMode) => {
        const key = `${mode}\n${model}`;
        let p = providers.get(key);
        if (!p) {
          p = createProvider(model, {
            env: ctx.io.env,
            cache: mode === 'no-cache' ? null : cache,
            cacheMode: settings.cacheMode === 'no-cache' ? 'no-cache' : mode,
            concurrency: settings.concurrency,
            budget,
            prices: settings.prices,
          });
          providers.set(key, p);
        }
        return p;
      };
      const models = flags.models?.map((m) => modelId(parseModelString(m, '--models')));
      const worker = new QueueWorker({
        target,
        models: models ?? null,
        concurrency: settings.concurrency,
        provider,
        name,
        lockMs: flags.lockMs,
        stalledCheckMs: flags.stalledCheckMs,
        maxStalls: flags.maxStalls,
        log: say,
      });
      await worker.start();
      say(
        `taking calls from ${target.display}${models ? '' : ' for every model enqueued'} (${settings.concurrency} at once per model; cache ${cache ? (settings.cacheRedis?.display ?? settings.cachePath) : 'off'})`,
      );
      await untilStopped(worker, say);
      cache?.close();
      say(
        `stopped after ${worker.tally.done} calls (${worker.tally.failed} failed, ${worker.tally.cached} from cache)`,
      );
    });
};

/** Runs until SIGINT/SIGTERM: the first lets calls in flight finish, a second gives them up. */
function untilStopped(worker: QueueWorker, say: (line: string) => void): Promise<void> {
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

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
