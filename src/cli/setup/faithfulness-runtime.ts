import type { LlmProvider } from '../../llm/index.js';
import type { CliContext } from '../context.js';
import type { LlmSettings, RunName } from '../llm-options.js';
import type { ModelCall } from '../progress.js';

/** The models of one run, built from model strings with the run's policies (cache, limiter, budget). */
export interface FaithfulnessRuntime {
  provider(model: string): LlmProvider;
  /** Names the run's calls on a queue and connects to it (`LlmRuntime.useRun`). */
  useRun?(run: RunName): Promise<void>;
  /** Subscribes to every finished model call (progress lines count their tokens and cost). */
  onCall?(listener: (call: ModelCall) => void): void;
  close(): void;
}

/** How the command gets its runtime: the real one by default, a fake one in tests. */
export type RuntimeFactory = (settings: LlmSettings, ctx: CliContext) => FaithfulnessRuntime;
