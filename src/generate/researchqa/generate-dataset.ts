import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { JsonlAppender, readJsonlIds, readTextFile } from '../../core/index.js';
import type { LlmProvider } from '../../llm/index.js';
import { type DropReason, generatePaperQuestions, type PaperGeneration } from './generate-questions.js';

export interface GenerateDatasetOptions {
  /** Papers answered at once (default 2). */
  concurrency?: number;
  onPaper?: (result: PaperGeneration, done: number, total: number) => void;
  signal?: AbortSignal;
  maxPaperChars?: number;
}

export interface GenerateDatasetResult {
  papers: number;
  /** Papers skipped because an earlier run finished them. */
  keptPapers: number;
  rows: number;
  repaired: number;
  dropped: Partial<Record<DropReason, number>>;
  failedPapers: { paperId: string; error: string }[];
  costUsd: number;
}

/** The progress file beside a generated dataset: one line per finished paper. */
export function progressPath(out: string): string {
  return `${out}.papers.jsonl`;
}

/**
 * Generates rows for every paper into `out` (JSONL), resumable per paper: a paper is finished when
 * its line is in the progress file (written after its rows); finished papers are skipped, failed
 * ones are retried on the next run. Rows of papers that were not finished (a killed run) are removed
 * from `out` before resuming, so no row is ever duplicated.
 */
export async function generateDataset(
  llm: LlmProvider,
  papers: readonly { id: string; domain: string }[],
  loadText: (paperId: string) => Promise<string | null>,
  out: string,
  options: GenerateDatasetOptions = {},
): Promise<GenerateDatasetResult> {
  const finished = readJsonlIds(progressPath(out), 'paper_id', (row) => row.error === null);
  dropUnfinishedRows(out, finished);
  const todo = papers.filter((p) => !finished.has(p.id));
  const result: GenerateDatasetResult = {
    papers: todo.length,
    keptPapers: papers.length - todo.length,
    rows: 0,
    repaired: 0,
    dropped: {},
    failedPapers: [],
    costUsd: 0,
  };
  const rowsOut = new JsonlAppender(out);
  const progress = new JsonlAppender(progressPath(out));
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length) {
      options.signal?.throwIfAborted();
      const paper = todo[next++]!;
      const text = await loadText(paper.id);
      const gen = await generatePaperQuestions(llm, paper.id, text, {
        domain: paper.domain,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.maxPaperChars ? { maxPaperChars: options.maxPaperChars } : {}),
      });
      for (const row of gen.rows) rowsOut.append(row);
      progress.append({
        paper_id: paper.id,
        rows: gen.rows.length,
        repaired: gen.repaired,
        dropped: gen.dropped,
        error: gen.error,
      });
      result.rows += gen.rows.length;
      result.repaired += gen.repaired;
      result.costUsd += gen.costUsd ?? 0;
      for (const [reason, n] of Object.entries(gen.dropped) as [DropReason, number][]) {
        result.dropped[reason] = (result.dropped[reason] ?? 0) + n;
      }
      if (gen.error) result.failedPapers.push({ paperId: paper.id, error: gen.error });
      options.onPaper?.(gen, ++done, todo.length);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, todo.length || 1)) }, worker),
    );
  } finally {
    rowsOut.close();
    progress.close();
  }
  return result;
}

/** Rewrites `out` without the rows of papers that are not finished (and without torn lines). */
function dropUnfinishedRows(out: string, finished: Set<string>): void {
  if (!existsSync(out)) return;
  const kept = readTextFile(out, 'dataset being resumed', { output: true })
    .split('\n')
    .filter((line) => {
      try {
        return line.trim() !== '' && finished.has((JSON.parse(line) as { paper_id?: string }).paper_id ?? '');
      } catch {
        return false;
      }
    });
  writeFileSync(`${out}.tmp`, kept.map((l) => `${l}\n`).join(''));
  renameSync(`${out}.tmp`, out);
}
