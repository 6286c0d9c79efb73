import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError } from '../core/index.js';
import {
  AdaptiveLimiter,
  Budget,
  type CacheMode,
  createProvider,
  type ProviderEnv,
  type ReplyCache,
  ResponseCache,
} from '../llm/index.js';
import { isRedisUrl, parseRedisUrl, RedisReplyCache } from '../queue/index.js';
import type { Config } from './config.js';
import { createQueuedRuntime } from './queue-runtime.js';
import { callTally, type LlmRuntime, type LlmSettings, withEnvPassword } from './setup/llm-runtime.js';
import { parseNumberFlag } from './setup/option-parsers.js';

export {
  type CallTotals,
  callTally,
  type LlmRuntime,
  type LlmSettings,
  type RunName,
  type RuntimeProvider,
  withEnvPassword,
} from './setup/llm-runtime.js';

/** Flags every LLM-using command accepts (`addLlmOptions`), as commander parses them. */
export interface LlmFlags {
  model?: string;
  judge?: string;
  concurrency?: string;
  budget?: string;
  dryRun?: boolean;
  /** A SQLite file or a redis:// URL (`--cache`), or false (`--no-cache`). */
  cache?: boolean | string;
  cacheOnly?: boolean;
  queue?: string;
  rpm?: string;
}

/** Calls in flight across the workers when a queue run gives no --concurrency. */
export const QUEUE_DEFAULT_CONCURRENCY = 64;

export const DEFAULT_CACHE_FILE = join('.citegeist', 'cache.sqlite');

/** Adds --model, --judge, --concurrency, --budget, --dry-run, --cache/--no-cache, --cache-only, --queue and --rpm. */
export function addLlmOptions(command: Command, which: { model?: boolean; judge?: boolean } = {}): Command {
  if (which.model !== false)
    command.option('--model <spec>', 'model, e.g. openai:gpt-4.1-mini, ollama:qwen2.5:7b, gguf:<path>');
  if (which.judge) command.option('--judge <spec>', 'judge model (same forms as --model)');
  return command
    .option(
      '--concurrency <n>',
      `calls in flight at once (default 4; with --queue, across the workers: ${QUEUE_DEFAULT_CONCURRENCY})`,
    )
    .option(
      '--budget <usd>',
      'hard cap on spend in USD: no call starts once the projected spend would pass it',
    )
    .option('--dry-run', 'estimate calls, tokens and cost, then stop without calling a model', false)
    .option(
      '--cache <file|url>',
      'response cache: a SQLite file (default .citegeist/cache.sqlite) or redis://host:port/db shared by several machines',
    )
    .option('--no-cache', 'neither read nor write the response cache')
    .option('--cache-only', 'only replay cached replies; a miss fails that call', false)
    .option(
      '--queue <url>',
      'run the model calls on queue workers (`citegeist worker`) through Redis: redis://host:port[/db] (docs/scale-out.md)',
    )
    .option(
      '--rpm <n>',
      'with --queue: requests per minute per model, enforced across all workers (0 removes a limit)',
    );
}

/** Resolves flags over the config file; throws a CitegeistError naming a bad flag value. */
export function resolveLlmSettings(flags: LlmFlags, config: Config, cwd: string): LlmSettings {
  const queueUrl = flags.queue ?? config.queue;
  const queue = queueUrl ? parseRedisUrl(queueUrl, flags.queue ? '--queue' : 'queue (config)') : null;
  const concurrency =
    flags.concurrency === undefined
      ? (config.concurrency ?? (queue ? QUEUE_DEFAULT_CONCURRENCY : 4))
      : parseNumberFlag('--concurrency', flags.concurrency, { integer: true, min: 1 });
  const budgetUsd =
    flags.budget === undefined
      ? (config.budget ?? null)
      : parseNumberFlag('--budget', flags.budget, { min: 0 });
  if (flags.cache === false && flags.cacheOnly) {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      '--no-cache and --cache-only were both given.',
      'Use one of them.',
    );
  }
  const cacheMode: CacheMode = flags.cacheOnly ? 'cache-only' : flags.cache === false ? 'no-cache' : 'normal';
  const cacheTarget = typeof flags.cache === 'string' ? flags.cache : (config.cache ?? DEFAULT_CACHE_FILE);
  const cacheRedis =
    cacheMode !== 'no-cache' && isRedisUrl(cacheTarget)
      ? parseRedisUrl(cacheTarget, typeof flags.cache === 'string' ? '--cache' : 'cache (config)')
      : null;
  if (flags.rpm !== undefined && !queue) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      '--rpm is enforced across queue workers, and no --queue was given.',
      'Add --queue redis://host:port/db, or drop --rpm (a local run caps calls with --concurrency and backs off on 429s).',
    );
  }
  return {
    model: flags.model ?? config.model,
    judge: flags.judge ?? config.judge,
    concurrency,
    budgetUsd,
    dryRun: flags.dryRun ?? false,
    cacheMode,
    cachePath: cacheMode === 'no-cache' || cacheRedis ? null : resolve(cwd, cacheTarget),
    cacheRedis,
    queue,
    rpm: flags.rpm === undefined ? null : parseNumberFlag('--rpm', flags.rpm, { integer: true, min: 0 }),
    prices: config.prices ?? {},
  };
}

/**
 * The runtime of one command: local providers sharing one cache, limiter and budget, or — with
 * `--queue` — providers whose calls run on queue workers (`queue-runtime.ts`).
 */
export function createLlmRuntime(
  settings: LlmSettings,
  env: ProviderEnv,
  warn: (message: string) => void = (m) => process.stderr.write(`warning: ${m}\n`),
): LlmRuntime {
  if (settings.queue) return createQueuedRuntime(settings, env, warn);
  const redis = settings.cacheRedis
    ? new RedisReplyCache(withEnvPassword(settings.cacheRedis, env), warn)
    : null;
  const file = settings.cachePath ? new ResponseCache(settings.cachePath, warn) : null;
  const cache: ReplyCache | null = redis ?? file;
  const budget = settings.budgetUsd === null ? null : new Budget(settings.budgetUsd);
  const limiter = new AdaptiveLimiter({ max: settings.concurrency });
  const { totals, onCall, listen } = callTally();
  return {
    settings,
    budget,
    cache,
    totals,
    provider: (spec) =>
      createProvider(spec, {
        env,
        cache,
        cacheMode: settings.cacheMode,
        limiter,
        budget,
        prices: settings.prices,
        onCall,
      }),
    onCall: listen,
    useRun: async () => {
      await redis?.open();
    },
    close: () => {
      file?.close();
      redis?.close();
    },
  };
}
