import { AdaptiveLimiter, Budget, type ProviderEnv } from '../llm/index.js';
import { QueueCoordinator, QueuedProvider, type QueueRun } from '../queue/index.js';
import { callTally, type LlmRuntime, type LlmSettings, withEnvPassword } from './setup/llm-runtime.js';

/**
 * The runtime of a command run with `--queue`: it coordinates. Its providers build prompts and
 * parse replies here, as a local run does, and send each call to the model's queue; the workers
 * hold the keys and the cache. The budget and the window of calls in flight (`--concurrency`) are
 * held here. No key is read: a coordinator needs none.
 */
export function createQueuedRuntime(
  settings: LlmSettings,
  env: ProviderEnv,
  warn: (message: string) => void,
): LlmRuntime {
  const target = withEnvPassword(settings.queue!, env);
  const coordinator = new QueueCoordinator(target, {
    ...(settings.rpm === null
      ? {}
      : { rateLimit: settings.rpm > 0 ? { max: settings.rpm, durationMs: 60_000 } : null }),
    onWarning: warn,
  });
  const budget = settings.budgetUsd === null ? null : new Budget(settings.budgetUsd);
  const limiter = new AdaptiveLimiter({ max: settings.concurrency });
  const { totals, onCall, listen } = callTally();
  // A command that names no run still works; its jobs are then this process's own (not found again
  // by a restarted command).
  let run: QueueRun = {
    id: `adhoc-${coordinator.session.slice(0, 8)}`,
    label: '(unnamed run)',
    kind: 'calls',
  };
  return {
    settings,
    budget,
    cache: null,
    totals,
    provider: (spec) =>
      new QueuedProvider(spec, {
        coordinator,
        run: () => run,
        limiter,
        budget,
        prices: settings.prices,
        cacheMode: settings.cacheMode,
        onCall,
      }),
    onCall: listen,
    useRun: async (named) => {
      run = { id: named.run_id, label: named.label, kind: named.kind };
      await coordinator.announce(run);
    },
    close: () => void coordinator.close(),
  };
}
