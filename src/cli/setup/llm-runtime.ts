import type {
  Budget,
  CacheMode,
  CallEvent,
  LlmProvider,
  PriceTable,
  ProviderEnv,
  ReplyCache,
} from '../../llm/index.js';
import type { RedisTarget } from '../../queue/index.js';

/** Flags + config resolved once: plain values for the provider factory. */
export interface LlmSettings {
  model: string | undefined;
  judge: string | undefined;
  concurrency: number;
  /** USD; null = no cap. */
  budgetUsd: number | null;
  dryRun: boolean;
  cacheMode: CacheMode;
  /** The SQLite cache file, or null when caching is off or in Redis. */
  cachePath: string | null;
  /** A response cache shared through Redis (`--cache redis://…`). */
  cacheRedis: RedisTarget | null;
  /** `--queue`: model calls go to queue workers; this command coordinates. */
  queue: RedisTarget | null;
  /** `--rpm`: requests per minute per model, enforced queue-wide (0 removes a limit). */
  rpm: number | null;
  prices: PriceTable;
}

/** A model as a run's runtime hands it out: local, or running on queue workers. */
export type RuntimeProvider = LlmProvider & {
  /** How structured output is obtained ("json_schema", "tool call", …; decided by workers in a queue run). */
  readonly structuredOutput: string;
};

/** What names a run's calls on a queue: a run manifest, or an id, label and kind of one's own. */
export interface RunName {
  run_id: string;
  label: string;
  kind: string;
}

/** Shared by every provider of one run: one cache, one limiter, one budget, one usage tally. */
export interface LlmRuntime {
  readonly settings: LlmSettings;
  readonly budget: Budget | null;
  readonly cache: ReplyCache | null;
  readonly totals: CallTotals;
  /** Builds the provider a model string names, with the run's policies. */
  provider(spec: string): RuntimeProvider;
  /** Called for every finished call (progress bars subscribe here). */
  onCall(listener: (event: CallEvent) => void): void;
  /**
   * Names the run the calls belong to (queue job ids and `queue status` use it) and connects to
   * Redis when there is a queue or a Redis cache, so an unreachable server stops the command
   * (QUEUE_UNREACHABLE) before any row is written. A local run with a file cache has nothing to do.
   * Every command that can run on a queue calls it once, before its first model call.
   */
  useRun(run: RunName): Promise<void>;
  close(): void;
}

export interface CallTotals {
  calls: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The run's call tally, and the listener list behind `onCall`. */
export function callTally(): {
  totals: CallTotals;
  onCall: (event: CallEvent) => void;
  listen: (listener: (event: CallEvent) => void) => void;
} {
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
  return { totals, onCall, listen: (listener) => void listeners.push(listener) };
}

/** A Redis target with the password from CITEGEIST_REDIS_PASSWORD when its URL has none. */
export function withEnvPassword(target: RedisTarget, env: ProviderEnv): RedisTarget {
  const password = env.CITEGEIST_REDIS_PASSWORD?.trim();
  return target.password || !password ? target : { ...target, password };
}
