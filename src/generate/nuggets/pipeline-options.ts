/** What the nugget pipeline takes: its options and one request's input (apart from the pipeline, so the plan of its calls can name them too). */
import type { Creator, ReportRequest } from '../../formats/index.js';
import type { LlmProvider } from '../../llm/index.js';
import type { NuggetDocument, QaPair } from './grounded-qa.js';
import type { StepState } from './step-log.js';

/**
 * A progress reporter (the CLI's); one per step and request, one at a time. It counts units; the
 * calls' tokens and cost reach it from the runtime's call listener.
 */
export interface StepProgress {
  tick(item: { ok: boolean; note?: string; problem?: string }): void;
  stop(): void;
}

export interface PipelineOptions {
  llm: LlmProvider;
  /** The output folder's state (opened by the caller, read-only for a dry run). */
  state: StepState;
  /** Question embeddings for one request (the embedder is fitted there when it needs fitting). */
  embed: (texts: string[]) => Promise<Float32Array[]>;
  outDir: string;
  creator: Creator;
  /** Cosine threshold for candidate pairs (default 0.9). */
  threshold?: number;
  /** Drop QA pairs with non-English text (default true, as the released pipeline). */
  filterEnglish?: boolean;
  exactLimit?: number;
  /** Maps a QA pair to a finer reference than its document (a paper's passage id). */
  locate?: (doc: NuggetDocument, pair: QaPair) => string | undefined;
  progress?: (label: string, total: number, unit: string) => StepProgress;
}

export interface RequestInput {
  request: ReportRequest;
  docs: NuggetDocument[];
}
