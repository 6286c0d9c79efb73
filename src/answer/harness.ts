import pLimit from 'p-limit';
import { type DatasetRow, type RunManifest, type RunRow, RunRowSchema } from '../core/index.js';
import { inspectRunFile, keepParsed, RunFile, type RunFileOptions } from '../io/index.js';
import type { Answerer, AnswerOutcome } from './answerer.js';
import type { PaperContext } from './paper-context.js';

export interface HarnessProgress {
  done: number;
  total: number;
  failed: number;
  costUsd: number;
  /** Rows skipped because the output already had them (resume). */
  skipped: number;
  /** Rows answered from the response cache (no model call, no cost). */
  cached: number;
}

export interface HarnessOptions {
  /** Rows answered at once (default 4). */
  concurrency?: number;
  onProgress?: (progress: HarnessProgress, row: RunRow) => void;
  signal?: AbortSignal;
}

export interface HarnessResult {
  answered: number;
  failed: number;
  skipped: number;
  /** Rows answered from the response cache in this attempt. */
  cached: number;
  costUsd: number;
  /** Every row of the output file after the run (kept + new), in file order. */
  rows: RunRow[];
  /** The run's manifest as it stands in the file (the first attempt's, on a resume). */
  manifest: RunManifest;
  /** Processes that had been killed while writing this file (their stale lock was removed). */
  tookOverFrom: { pid: number; command: string; started_at: string }[];
}

/** Where a run goes: its file, and the manifest that names the run (checked on resume). */
export interface RunTarget {
  path: string;
  manifest: RunManifest;
}

/** How an existing run file is opened (and inspected for `--dry-run`): good rows stay, failed ones are redone. */
export function runFileOptions(manifest: RunManifest): RunFileOptions {
  return {
    manifest,
    idField: 'row_id',
    what: 'run file',
    command: 'citegeist answer',
    keep: keepParsed(RunRowSchema, 'Run row', (row) => row.error === null),
  };
}

/** What a resume of the run file at `path` would keep (read only: for `--dry-run`). */
export function inspectRunFileFor(path: string, manifest: RunManifest): { kept: RunRow[] } {
  return { kept: inspectRunFile(path, runFileOptions(manifest)).kept.map((r) => RunRowSchema.parse(r)) };
}

/** The run row recorded for one answer attempt. */
export function runRowOf(row: DatasetRow, answerer: Answerer, outcome: AnswerOutcome): RunRow {
  return {
    row_id: row.row_id,
    model: answerer.id,
    answer: outcome.answer,
    citations: outcome.citations,
    contract: answerer.contract,
    context_mode: outcome.contextMode,
    latency_ms: outcome.latencyMs,
    usage: outcome.usage,
    cost_usd: outcome.costUsd,
    retries: outcome.retries,
    cached: outcome.cached ?? false,
    error: outcome.error,
    ...(outcome.raw !== undefined ? { raw: outcome.raw } : {}),
  };
}

/**
 * Answers every dataset row not already answered in the run file (resumable: good rows are kept,
 * failed rows retried, never duplicated), appending each row with fsync as it completes. The file
 * is locked meanwhile and holds one run: a file of another run (its manifest differs) is refused.
 * A thrown error inside the answerer is recorded as a failed row; only cancellation stops the batch.
 */
export async function runAnswers(
  rows: readonly DatasetRow[],
  answerer: Answerer,
  papers: (paperId: string) => Promise<PaperContext | null>,
  out: RunTarget,
  options: HarnessOptions = {},
): Promise<HarnessResult> {
  const file = RunFile.open(out.path, runFileOptions(out.manifest));
  const kept = file.kept.map((r) => RunRowSchema.parse(r));
  const done = new Set(kept.map((r) => r.row_id));
  const todo = rows.filter((r) => !done.has(r.row_id));
  const progress: HarnessProgress = {
    done: 0,
    total: todo.length,
    failed: 0,
    costUsd: 0,
    skipped: rows.length - todo.length,
    cached: 0,
  };
  const fresh: RunRow[] = [];
  const answerOne = async (row: DatasetRow) => {
    options.signal?.throwIfAborted();
    let outcome: AnswerOutcome;
    const started = performance.now();
    try {
      outcome = await answerer.answer({ row, paper: await papers(row.paper_id) }, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      outcome = {
        answer: '',
        citations: [],
        contextMode: 'none',
        latencyMs: performance.now() - started,
        usage: null,
        costUsd: null,
        retries: 0,
        error: `answerer error: ${(error as Error).message}`,
      };
    }
    const runRow = runRowOf(row, answerer, outcome);
    file.append(runRow);
    fresh.push(runRow);
    progress.done++;
    if (runRow.error) progress.failed++;
    if (runRow.cached) progress.cached++;
    else progress.costUsd += runRow.cost_usd ?? 0;
    options.onProgress?.({ ...progress }, runRow);
  };
  // Started in dataset order, at most `concurrency` at once; each row is appended as it finishes.
  const lanes = Math.max(1, Math.floor(Math.min(options.concurrency ?? 4, todo.length || 1)));
  try {
    await pLimit(lanes).map(todo, answerOne);
  } finally {
    file.close();
  }
  return {
    answered: progress.done,
    failed: progress.failed,
    skipped: progress.skipped,
    cached: progress.cached,
    costUsd: progress.costUsd,
    rows: [...kept, ...fresh],
    manifest: file.manifest,
    tookOverFrom: file.tookOverFrom,
  };
}
