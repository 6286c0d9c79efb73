import { appendFileSync, existsSync } from 'node:fs';
import type { Document } from '../../core/index.js';
import { CitegeistError, location, readTextFile } from '../../core/index.js';
import type { LlmProvider } from '../../llm/index.js';
import { extractRecipe, type Recipe, RecipeSchema, renderRecipe } from './recipe.js';

/** One stored extraction: a recipe, or the failure that was recorded for the paper. */
export type StoredRecipe =
  | { docId: string; ok: true; recipe: Recipe; model: string }
  | { docId: string; ok: false; reason: string; model: string };

/**
 * Where recipes live beside the paragraphs. Small on purpose so that the corpus store can provide
 * a SQLite table later; `JsonlRecipeStore` is the file implementation.
 */
export interface RecipeStore {
  get(docId: string): StoredRecipe | undefined;
  put(entry: StoredRecipe): void;
  all(): StoredRecipe[];
}

export class MemoryRecipeStore implements RecipeStore {
  private readonly entries = new Map<string, StoredRecipe>();
  get(docId: string) {
    return this.entries.get(docId);
  }
  put(entry: StoredRecipe) {
    this.entries.set(entry.docId, entry);
  }
  all() {
    return [...this.entries.values()];
  }
}

/** Append-only JSONL; the last line for a document wins (a retried failure overrides the failure). */
export class JsonlRecipeStore implements RecipeStore {
  private readonly entries = new Map<string, StoredRecipe>();

  constructor(readonly path: string) {
    if (!existsSync(path)) return;
    const lines = readTextFile(path, 'recipes file').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${location(path, i + 1)} is not JSON.`,
          'Delete or fix that line; extraction resumes from the rest.',
        );
      }
      const entry = raw as StoredRecipe;
      if (typeof entry?.docId !== 'string' || (entry.ok && !RecipeSchema.safeParse(entry.recipe).success)) {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${location(path, i + 1)} is not a stored recipe.`,
          'Delete or fix that line.',
        );
      }
      this.entries.set(entry.docId, entry);
    });
  }

  get(docId: string) {
    return this.entries.get(docId);
  }

  put(entry: StoredRecipe) {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
    this.entries.set(entry.docId, entry);
  }

  all() {
    return [...this.entries.values()];
  }
}

export interface ExtractRecipesSummary {
  extracted: number;
  skipped: number;
  failed: { docId: string; reason: string }[];
}

/**
 * Extracts recipes for every document not yet stored (resumable: stored recipes are skipped;
 * stored failures are retried only with `retryFailed`). A failed document is recorded and counted,
 * never aborts the batch.
 */
export async function extractRecipes(
  docs: Iterable<Document>,
  llm: LlmProvider,
  store: RecipeStore,
  options: {
    retryFailed?: boolean;
    concurrency?: number;
    /** After each document extracted now (not the skipped ones): its outcome and the counts. */
    onProgress?: (outcome: { ok: boolean; reason?: string }, done: number, total: number) => void;
  } = {},
): Promise<ExtractRecipesSummary> {
  const summary: ExtractRecipesSummary = { extracted: 0, skipped: 0, failed: [] };
  const todo: Document[] = [];
  for (const doc of docs) {
    const prev = store.get(doc.id);
    if (prev && (prev.ok || !options.retryFailed)) {
      summary.skipped++;
      if (!prev.ok) summary.failed.push({ docId: doc.id, reason: prev.reason });
    } else todo.push(doc);
  }
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length) {
      const doc = todo[next++] as Document;
      const result = await extractRecipe(doc, llm);
      if (result.ok) {
        store.put({ docId: doc.id, ok: true, recipe: result.recipe, model: llm.id });
        summary.extracted++;
        options.onProgress?.({ ok: true }, ++done, todo.length);
      } else {
        store.put({ docId: doc.id, ok: false, reason: result.reason, model: llm.id });
        summary.failed.push({ docId: doc.id, reason: result.reason });
        options.onProgress?.({ ok: false, reason: `${doc.id}: ${result.reason}` }, ++done, todo.length);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return summary;
}

/** docId → rendered recipe text, for the stored successful extractions. */
export function recipeTexts(store: RecipeStore): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of store.all()) if (e.ok) out.set(e.docId, renderRecipe(e.recipe));
  return out;
}
