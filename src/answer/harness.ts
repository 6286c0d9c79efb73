import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { type DatasetRow, JsonlAppender, type RunRow, readTextFile } from '../core/index.js';
import type { Answerer, AnswerOutcome } from './answerer.js';
import type { PaperContext } from './paper-context.js';

export interface HarnessProgress {
  done: number;
  total: number;
  failed: number;
  costUsd: number;
  /** Rows skipped because the output already had them (resume). */
  skipped: number;
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
  costUsd: number;
  /** Every row of the output file after the run (kept + new), in file order. */
  rows: RunRow[];
}

/**
 * Keeps the good rows of an existing run file and drops failed rows and torn lines, rewriting the
 * file atomically, so that a resumed run retries failures without ever duplicating a row id.
 */
export function compactRunFile(path: string, model: string): RunRow[] {
  if (!existsSync(path)) return [];
  const kept: RunRow[] = [];
  const seen = new Set<string>();
  for (const line of readTextFile(path, 'run file being resumed', { output: true }).split('\n')) {
    if (line.trim() === '') continue;
    try {
      const row = JSON.parse(line) as RunRow;
      if (typeof row.row_id !== 'string' || row.error || row.model !== model || seen.has(row.row_id))
        continue;
      seen.add(row.row_id);
      kept.push(row);
    } catch {
      // a torn line from an interrupted run: redone below
    }
  }
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, kept.map((r) => `${JSON.stringify(r)}\n`).join(''));
  renameSync(tmp, path);
  return kept;
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
    error: outcome.error,
    ...(outcome.raw !== undefined ? { raw: outcome.raw } : {}),
  };
}

/**
 * Answers every dataset row not already answered in `out` (resumable: good rows are kept, failed
 * rows retried, never duplicated), appending each row with fsync as it completes. A thrown error
 * inside the answerer is recorded as a failed row; only cancellation stops the batch.
 */
export async function runAnswers(
  rows: readonly DatasetRow[],
  answerer: Answerer,
  papers: (paperId: string) => Promise<PaperContext | null>,
  out: string,
  options: HarnessOptions = {},
): Promise<HarnessResult> {
  const kept = compactRunFile(out, answerer.id);
  const done = new Set(kept.map((r) => r.row_id));
  const todo = rows.filter((r) => !done.has(r.row_id));
  const appender = new JsonlAppender(out);
  const progress: HarnessProgress = {
    done: 0,
    total: todo.length,
    failed: 0,
    costUsd: 0,
    skipped: rows.length - todo.length,
  };
  const fresh: RunRow[] = [];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      options.signal?.throwIfAborted();
      const row = todo[next++]!;
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
      appender.append(runRow);
      fresh.push(runRow);
      progress.done++;
      if (runRow.error) progress.failed++;
      progress.costUsd += runRow.cost_usd ?? 0;
      options.onProgress?.({ ...progress }, runRow);
    }
  };
  try {
    const lanes = Math.max(1, Math.min(options.concurrency ?? 4, todo.length || 1));
    await Promise.all(Array.from({ length: lanes }, worker));
  } finally {
    appender.close();
  }
  return {
    answered: progress.done,
    failed: progress.failed,
    skipped: progress.skipped,
    costUsd: progress.costUsd,
    rows: [...kept, ...fresh],
  };
}
