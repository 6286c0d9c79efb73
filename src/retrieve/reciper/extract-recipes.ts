import pLimit from 'p-limit';
import type { Document, RunManifest } from '../../core/index.js';
import { byField, RunFile, reorderRunFile } from '../../io/index.js';
import type { LlmProvider } from '../../llm/index.js';
import { extractRecipe, paperSha256 } from './recipe.js';
import { type RecipeRow, type RecipesWork, recipesFilePlan } from './recipe-file.js';

export interface ExtractRecipesOptions {
  /** The run's manifest (`recipesManifest`): written first in the file, checked on resume. */
  manifest: RunManifest;
  /** Redo papers whose extraction failed before (else their failure stays and is counted). */
  retryFailed?: boolean;
  /** Papers extracted at once (default 4). */
  concurrency?: number;
  /** After each paper extracted now: its outcome, and how many are done of how many. */
  onProgress?: (outcome: { ok: boolean; reason?: string }, done: number, total: number) => void;
  /** Called once the file is open, with what will be done (before any model call). */
  onPlan?: (work: RecipesWork) => void;
  signal?: AbortSignal;
}

export interface ExtractRecipesSummary extends Omit<RecipesWork, 'todo' | 'failedEarlier'> {
  extracted: number;
  /** Extracted now from the response cache. */
  cached: number;
  /** Failed now, and failed earlier without `retryFailed`. */
  failed: { docId: string; reason: string }[];
  failedEarlier: number;
  /** Stale locks taken over on the way in (a killed earlier run), for a notice. */
  tookOverFrom: { pid: number; command: string; started_at: string }[];
}

/**
 * Extracts one recipe per paper into the recipes file at `path`, resumable: the file holds one
 * run (its manifest must agree, else RUN_MANIFEST_MISMATCH), is locked while written (LOCK_HELD
 * for a second writer), and a torn last line is repaired. Papers with a line of their current
 * text are kept; changed papers are redone; failed ones only with `retryFailed`. A failed paper is
 * recorded and counted, never aborts the batch.
 */
export async function extractRecipesInto(
  path: string,
  docs: readonly Document[],
  llm: LlmProvider,
  options: ExtractRecipesOptions,
): Promise<ExtractRecipesSummary> {
  const plan = recipesFilePlan(options.manifest, docs, { retryFailed: options.retryFailed ?? false });
  const file = RunFile.open(path, plan.fileOptions);
  let summary: ExtractRecipesSummary;
  try {
    const work = plan.work(file.kept);
    options.onPlan?.(work);
    summary = {
      kept: work.kept,
      changed: work.changed,
      retried: work.retried,
      extracted: 0,
      cached: 0,
      failed: [...work.failedEarlier],
      failedEarlier: work.failedEarlier.length,
      tookOverFrom: file.tookOverFrom,
    };
    let done = 0;
    const extractOne = async (doc: Document) => {
      options.signal?.throwIfAborted();
      const result = await extractRecipe(doc, llm, {
        maxChars: Number(options.manifest.settings.max_chars),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const row: RecipeRow = {
        doc_id: doc.id,
        paper_sha256: paperSha256(doc),
        recipe: result.ok ? result.recipe : null,
        error: result.ok ? null : result.reason,
        cached: result.cached,
      };
      file.append(row);
      if (result.cached) summary.cached++;
      if (result.ok) summary.extracted++;
      else summary.failed.push({ docId: doc.id, reason: result.reason });
      options.onProgress?.(
        result.ok ? { ok: true } : { ok: false, reason: `${doc.id}: ${result.reason}` },
        ++done,
        work.todo.length,
      );
    };
    // Started in corpus order, at most `concurrency` at once; each row is appended as it finishes.
    const lanes = Math.max(1, Math.floor(Math.min(options.concurrency ?? 4, work.todo.length || 1)));
    await pLimit(lanes).map(work.todo, extractOne);
  } finally {
    file.close();
  }
  // Rows were appended as papers finished: put them in corpus order (the same bytes however it ran).
  reorderRunFile(path, {
    key: byField('doc_id'),
    command: plan.fileOptions.command,
    order: docs.map((d) => d.id),
  });
  return summary;
}
