import { hostname } from 'node:os';
import { Budget, modelId, parseModelString, type ReplyCache, ResponseCache } from '../../llm/index.js';
import { QueueWorker, RedisReplyCache, workerProviders } from '../../queue/index.js';
import type { RegisterCommand } from '../context.js';
import { resolveLlmSettings, withEnvPassword } from '../llm-options.js';
import { parseIntOption } from '../setup/option-parsers.js';
import { untilStopped } from '../setup/until-stopped.js';

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
      const provider = workerProviders({
        env: ctx.io.env,
        cache,
        cacheMode: settings.cacheMode,
        concurrency: settings.concurrency,
        budget,
        prices: settings.prices,
      });
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

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
