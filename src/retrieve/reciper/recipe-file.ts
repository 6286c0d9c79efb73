import { existsSync } from 'node:fs';
import { z } from 'zod';
import {
  CitegeistError,
  createManifest,
  type Document,
  location,
  type RunManifest,
} from '../../core/index.js';
import { keepParsed, parseJsonl, type RunFileOptions, readTextFile, takeManifest } from '../../io/index.js';
import {
  paperSha256,
  RECIPE_MAX_CHARS,
  RECIPE_TEMPERATURE,
  type Recipe,
  RecipeSchema,
  recipePromptVersion,
} from './recipe.js';

/**
 * A recipes file (`index/recipes.jsonl` beside the corpus): the run manifest (kind `recipes`), then
 * one line per paper — its recipe or the failure recorded for it, and the hash of the paper
 * (title and text) it was made from, so a paper that changed since is redone.
 */
export const RecipeRowSchema = z
  .object({
    doc_id: z.string().min(1),
    paper_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    recipe: RecipeSchema.nullable(),
    error: z.string().nullable(),
    /** The reply came from the response cache. */
    cached: z.boolean(),
  })
  .refine((r) => (r.recipe === null) !== (r.error === null), 'exactly one of "recipe" and "error" is set');
export type RecipeRow = z.infer<typeof RecipeRowSchema>;

/**
 * The manifest of a recipe extraction: the model, the prompt (hashed), temperature and the paper
 * characters sent, and the corpus the file belongs to — its path relative to the recipes file
 * (`../corpus.sqlite` for the default file), so one file is never filled from two corpora while
 * moving the project folder keeps it resumable. The papers' contents are not manifest inputs:
 * each line carries its own paper's hash (`paper_sha256`), so adding, removing or changing papers
 * redoes only what changed instead of refusing the whole file.
 */
export function recipesManifest(o: {
  model: string;
  /** The corpus file's path relative to the recipes file's folder. */
  corpus: string;
  version: string;
  maxChars?: number;
}): RunManifest {
  return createManifest({
    kind: 'recipes',
    defaultLabel: o.model,
    settings: {
      model: o.model,
      prompt: recipePromptVersion(),
      temperature: RECIPE_TEMPERATURE,
      max_chars: o.maxChars ?? RECIPE_MAX_CHARS,
      corpus: o.corpus,
    },
    inputs: {},
    version: o.version,
  });
}

/** What a recipes file holds for the papers of a corpus, as an extraction would see it. */
export interface RecipesWork {
  /** Papers to extract now: new ones, changed ones, and failed ones with `retryFailed`. */
  todo: Document[];
  /** Papers whose stored line stays (a recipe of their current text, or a failure not retried). */
  kept: number;
  /** Papers whose stored line is redone because the paper changed since (ids). */
  changed: string[];
  /** Failed papers redone because of `retryFailed` (ids). */
  retried: string[];
  /** Failed papers whose failure stays (without `retryFailed`): id and reason. */
  failedEarlier: { docId: string; reason: string }[];
}

/**
 * How a recipes file is opened for `docs` (`RunFile.open`, or `inspectRunFile` for a dry run), and
 * what is left to do once it is: a line stays unless its paper changed (another `paper_sha256`)
 * or it is a failure and `retryFailed` is set. Lines of papers no longer in the corpus stay.
 */
export function recipesFilePlan(
  manifest: RunManifest,
  docs: readonly Document[],
  options: { retryFailed: boolean },
): { fileOptions: RunFileOptions; work: (kept: readonly Record<string, unknown>[]) => RecipesWork } {
  const current = new Map(docs.map((d) => [d.id, paperSha256(d)]));
  const changed: string[] = [];
  const retried: string[] = [];
  const fileOptions: RunFileOptions = {
    manifest,
    idField: 'doc_id',
    what: 'recipes file',
    command: 'citegeist recipes extract',
    keep: keepParsed(
      RecipeRowSchema,
      'Recipe line',
      (row) => {
        const now = current.get(row.doc_id);
        if (now !== undefined && now !== row.paper_sha256) {
          changed.push(row.doc_id);
          return false;
        }
        if (row.error !== null && options.retryFailed) {
          retried.push(row.doc_id);
          return false;
        }
        return true;
      },
      'doc_id',
    ),
  };
  const work = (kept: readonly Record<string, unknown>[]): RecipesWork => {
    const rows = new Map(kept.map((r) => [String(r.doc_id), r as RecipeRow]));
    const failedEarlier = docs.flatMap((d) => {
      const error = rows.get(d.id)?.error;
      return typeof error === 'string' ? [{ docId: d.id, reason: error }] : [];
    });
    return {
      todo: docs.filter((d) => !rows.has(d.id)),
      kept: docs.filter((d) => rows.has(d.id)).length,
      changed: [...changed],
      retried: [...retried],
      failedEarlier,
    };
  };
  return { fileOptions, work };
}

/** A recipe as retrieval reads it, with the hash of the paper it was made from (null: not recorded). */
export interface StoredRecipe {
  recipe: Recipe;
  paperSha256: string | null;
}

/** The recipes a file holds (failed extractions left out), for retrieval. */
export interface StoredRecipes {
  /** The file's manifest; null for a file an older citegeist wrote (no manifest, no paper hashes). */
  manifest: RunManifest | null;
  recipes: Map<string, StoredRecipe>;
  /** Papers whose extraction failed. */
  failed: number;
  /** A last line cut short (an extraction killed while writing it, or still running) was skipped. */
  torn: boolean;
}

/**
 * Reads a recipes file for retrieval without changing it: the current layout (manifest first, one
 * line per paper) or the layout of older citegeist versions (no manifest; `{docId, ok, recipe |
 * reason, model}` lines, the last line for a paper wins). An absent file holds no recipes.
 */
export function readRecipes(path: string): StoredRecipes {
  const out: StoredRecipes = { manifest: null, recipes: new Map(), failed: 0, torn: false };
  if (!existsSync(path)) return out;
  const text = readTextFile(path, 'recipes file', { output: true });
  let lines = parseJsonl(text);
  const last = lines.at(-1);
  if (last && !last.ok && !text.endsWith('\n')) {
    lines = lines.slice(0, -1);
    out.torn = true;
  }
  const { manifest, rows } = takeManifest(lines, path, false);
  if (manifest && manifest.kind !== 'recipes') {
    throw new CitegeistError(
      'RUN_FILE_FOREIGN',
      `${path} holds a "${manifest.kind}" run, not recipes.`,
      'Give the recipes file `citegeist recipes extract` wrote (index/recipes.jsonl beside the corpus).',
    );
  }
  out.manifest = manifest;
  // In the older layout a paper's last line wins (a retried failure overrides the failure).
  const failed = new Set<string>();
  for (const line of rows) {
    const where = location(path, line.line);
    if (!line.ok) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${where} is not JSON.`,
        'Delete or fix that line, or extract the recipes again.',
      );
    }
    const entry = manifest ? currentLine(line.value, where) : legacyLine(line.value, where);
    if (manifest && (out.recipes.has(entry.docId) || failed.has(entry.docId))) {
      throw new CitegeistError(
        'RUN_FILE_CORRUPT',
        `${where} repeats doc_id "${entry.docId}".`,
        'The file was edited or two files were joined: extract the recipes again into a new file.',
      );
    }
    out.recipes.delete(entry.docId);
    failed.delete(entry.docId);
    if (entry.recipe) out.recipes.set(entry.docId, { recipe: entry.recipe, paperSha256: entry.paperSha256 });
    else failed.add(entry.docId);
  }
  out.failed = failed.size;
  return out;
}

interface ReadLine {
  docId: string;
  recipe: Recipe | null;
  paperSha256: string | null;
}

function currentLine(value: unknown, where: string): ReadLine {
  const row = RecipeRowSchema.safeParse(value);
  if (!row.success) {
    throw new CitegeistError(
      'RUN_FILE_CORRUPT',
      `${where} is not a recipe line (${row.error.issues[0]?.path.join('.') || '(root)'}: ${row.error.issues[0]?.message ?? 'invalid'}).`,
      'The file was edited: extract the recipes again into a new file (`recipes extract --out`).',
    );
  }
  return { docId: row.data.doc_id, recipe: row.data.recipe, paperSha256: row.data.paper_sha256 };
}

const LegacyLineSchema = z.union([
  z.object({ docId: z.string(), ok: z.literal(true), recipe: RecipeSchema }),
  z.object({ docId: z.string(), ok: z.literal(false) }),
]);

function legacyLine(value: unknown, where: string): ReadLine {
  const row = LegacyLineSchema.safeParse(value);
  if (!row.success) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} is not a stored recipe.`,
      'Delete or fix that line, or extract the recipes again.',
    );
  }
  return { docId: row.data.docId, recipe: row.data.ok ? row.data.recipe : null, paperSha256: null };
}
