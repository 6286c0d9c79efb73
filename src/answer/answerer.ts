import type { Citation, DatasetRow, SettingValue } from '../core/index.js';
import type { PaperContext } from './paper-context.js';

export type ContextMode = 'full' | 'retrieval' | 'none';

/** What one answer attempt produced, success or failure alike. */
export interface AnswerOutcome {
  answer: string;
  citations: Citation[];
  contextMode: ContextMode;
  latencyMs: number;
  usage: { input_tokens: number; output_tokens: number } | null;
  costUsd: number | null;
  retries: number;
  /** true when the reply came from the response cache. */
  cached?: boolean;
  /** Set when the attempt failed (the row is recorded as failed and retried on resume). */
  error: string | null;
  /** The model's raw reply (for audits and re-parsing). */
  raw?: string;
}

export interface AnswerInput {
  row: DatasetRow;
  /** The paper, or null when its text is not available. */
  paper: PaperContext | null;
}

/**
 * Anything that answers a dataset row about a paper: an LLM under the citation contract, an LLM
 * without it (`--baseline`), or the extractive baseline. Implementations never throw on bad model
 * output or a missing paper: they return an outcome with `error` set.
 */
export interface Answerer {
  /** Recorded as the run's model, e.g. "openai:gpt-4.1-mini" or "extractive". */
  readonly id: string;
  /** false when no citation contract is used (citation metrics are then not applicable). */
  readonly contract: boolean;
  /** Everything besides the inputs that changes its answers (recorded in the run's manifest). */
  readonly settings: Readonly<Record<string, SettingValue>>;
  answer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutcome>;
}

/** An outcome for an attempt that could not start or failed without a reply. */
export function failedOutcome(
  error: string,
  contextMode: ContextMode = 'none',
  latencyMs = 0,
): AnswerOutcome {
  return { answer: '', citations: [], contextMode, latencyMs, usage: null, costUsd: null, retries: 0, error };
}
