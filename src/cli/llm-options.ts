import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError } from '../core/index.js';
import {
  AdaptiveLimiter,
  Budget,
  type CacheMode,
  type CallEvent,
  createProvider,
  type PriceTable,
  type ProviderEnv,
  ResponseCache,
  type TransportProvider,
} from '../llm/index.js';
import { parseNumberFlag } from './commands/option-parsers.js';
import type { Config } from './config.js';

/** Flags every LLM-using command accepts (`addLlmOptions`), as commander parses them. */
export interface LlmFlags {
  model?: string;
  judge?: string;
  concurrency?: string;
  budget?: string;
  dryRun?: boolean;
  cache?: boolean;
  cacheOnly?: boolean;
}

/** Flags + config resolved once: plain values for the provider factory. */
export interface LlmSettings {
  model: string | undefined;
  judge: string | undefined;
  concurrency: number;
  /** USD; null = no cap. */
  budgetUsd: number | null;
  dryRun: boolean;
  cacheMode: CacheMode;
  /** The SQLite cache file, or null when caching is off. */
  cachePath: string | null;
  prices: PriceTable;
}

export const DEFAULT_CACHE_FILE = join('.citegeist', 'cache.sqlite');

/** Adds --model, --judge, --concurrency, --budget, --dry-run, --no-cache and --cache-only. */
export function addLlmOptions(command: Command, which: { model?: boolean; judge?: boolean } = {}): Command {
  if (which.model !== false)
    command.option('--model <spec>', 'model, e.g. openai:gpt-4.1-mini, ollama:qwen2.5:7b, gguf:<path>');
  if (which.judge) command.option('--judge <spec>', 'judge model (same forms as --model)');
  return command
    .option('--concurrency <n>', 'calls in flight at once (default 4)')
    .option(
      '--budget <usd>',
      'hard cap on spend in USD: no call starts once the projected spend would pass it',
    )
    .option('--dry-run', 'estimate calls, tokens and cost, then stop without calling a model', false)
    .option('--no-cache', 'neither read nor write the response cache')
    .option('--cache-only', 'only replay cached replies; a miss fails that call', false);
}

/** Resolves flags over the config file; throws a CitegeistError naming a bad flag value. */
export function resolveLlmSettings(flags: LlmFlags, config: Config, cwd: string): LlmSettings {
  const concurrency =
    flags.concurrency === undefined
      ? (config.concurrency ?? 4)
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
  return {
    model: flags.model ?? config.model,
    judge: flags.judge ?? config.judge,
    concurrency,
    budgetUsd,
    dryRun: flags.dryRun ?? false,
    cacheMode,
    cachePath: cacheMode === 'no-cache' ? null : resolve(cwd, config.cache ?? DEFAULT_CACHE_FILE),
    prices: config.prices ?? {},
  };
}

/** Shared by every provider of one run: one cache, one limiter, one budget, one usage tally. */
export interface LlmRuntime {
  readonly settings: LlmSettings;
  readonly budget: Budget | null;
  readonly cache: ResponseCache | null;
  readonly totals: {
    calls: number;
    failed: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
  };
  /** Builds the provider a model string names, with the run's policies. */
  provider(spec: string): TransportProvider;
  /** Called for every finished call (progress bars subscribe here). */
  onCall(listener: (event: CallEvent) => void): void;
  close(): void;
}

export function createLlmRuntime(settings: LlmSettings, env: ProviderEnv): LlmRuntime {
  const cache = settings.cachePath ? new ResponseCache(settings.cachePath) : null;
  const budget = settings.budgetUsd === null ? null : new Budget(settings.budgetUsd);
  const limiter = new AdaptiveLimiter({ max: settings.concurrency });
  const listeners: ((event: CallEvent) => void)[] = [];
  const totals = { calls: 0, failed: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const onCall = (event: CallEvent) => {
    totals.calls++;
    if (!event.ok) totals.failed++;
    totals.inputTokens += event.usage?.inputTokens ?? 0;
    totals.outputTokens += event.usage?.outputTokens ?? 0;
    totals.costUsd += event.costUsd ?? 0;
    for (const l of listeners) l(event);
  };
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
    onCall: (listener) => void listeners.push(listener),
    close: () => cache?.close(),
  };
}

/**
 * For commands that cannot estimate their calls without making them: `--dry-run` stops with this
 * error instead of silently running (nothing is called).
 */
export function refuseDryRun(settings: LlmSettings, command: string): void {
  if (!settings.dryRun) return;
  throw new CitegeistError(
    'DRY_RUN_UNSUPPORTED',
    `${command} cannot estimate its model calls ahead of a run, so --dry-run is not supported there; nothing was run.`,
    'Drop --dry-run; cap the spend with --budget <usd> instead.',
  );
}
