import { z } from 'zod';
import { canonicalJson, type Document, sha256Hex } from '../../core/index.js';
import type { ChatMessage, LlmProvider } from '../../llm/index.js';

/** RECIPER's procedural summary of one paper (METHODS §4.1). */
export const RecipeSchema = z.object({
  material_name: z.string(),
  synthesis_method: z.string(),
  steps: z.array(z.object({ description: z.string() })),
  key_points: z.union([z.array(z.string()), z.string()]),
});
export type Recipe = z.infer<typeof RecipeSchema>;

/** The text that is embedded for the recipe view: `Material: … Method: … <steps> Key points: …`. */
export function renderRecipe(recipe: Recipe): string {
  const keyPoints = Array.isArray(recipe.key_points) ? recipe.key_points.join('; ') : recipe.key_points;
  return [
    `Material: ${recipe.material_name}`,
    `Method: ${recipe.synthesis_method}`,
    ...recipe.steps.map((s) => s.description),
    `Key points: ${keyPoints}`,
  ].join('\n');
}

const SYSTEM = [
  'You summarise the procedure described in a scientific paper as a compact recipe.',
  'Use only what the paper states; if it describes no synthesis or procedure, say so in synthesis_method and leave steps empty.',
  'Return JSON with: material_name (the material or object produced or studied), synthesis_method (one line),',
  'steps (ordered, each {description} one sentence with quantities and conditions), key_points (2-5 short strings).',
].join(' ');

/** Characters of paper text sent to the model, from the start (METHODS §4.1 leaves it open). */
export const RECIPE_MAX_CHARS = 24_000;
export const RECIPE_TEMPERATURE = 0;

/**
 * The messages sent for one paper's recipe: the instructions, then the title and the first
 * `maxChars` characters of the text, delimited. `recipes extract` sends them and its `--dry-run`
 * prices them, so the estimate is of the very prompt a run sends.
 */
export function recipeMessages(
  doc: Pick<Document, 'title' | 'text'>,
  maxChars: number = RECIPE_MAX_CHARS,
): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Title: ${doc.title}\n\n<paper>\n${doc.text.slice(0, maxChars)}\n</paper>` },
  ];
}

/** A short hash of the prompt (instructions and user template), recorded in a recipes file's manifest. */
export function recipePromptVersion(): string {
  return sha256Hex(canonicalJson(recipeMessages({ title: '', text: '' }))).slice(0, 12);
}

/**
 * What a paper's recipe was made from, as a hash: sha256 of its title and text (the prompt's two
 * inputs). A stored recipe whose paper now hashes otherwise is stale.
 */
export function paperSha256(doc: Pick<Document, 'title' | 'text'>): string {
  return sha256Hex(`${doc.title}\u0000${doc.text}`);
}

export interface ExtractRecipeOptions {
  /** Characters of paper text sent to the model (default RECIPE_MAX_CHARS, from the start). */
  maxChars?: number;
  signal?: AbortSignal;
}

export type RecipeResult =
  | { ok: true; recipe: Recipe; text: string; cached: boolean }
  | { ok: false; reason: string; raw?: string; cached: boolean };

/** Asks the model for one paper's recipe (schema-validated, with the LLM layer's repair loop). Never throws on model output. */
export async function extractRecipe(
  doc: Document,
  llm: LlmProvider,
  options: ExtractRecipeOptions = {},
): Promise<RecipeResult> {
  const result = await llm.generateObject({
    schema: RecipeSchema,
    schemaName: 'recipe',
    temperature: RECIPE_TEMPERATURE,
    messages: recipeMessages(doc, options.maxChars),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const cached = result.cached;
  if (!result.ok) return { ok: false, reason: result.reason, raw: result.raw, cached };
  return { ok: true, recipe: result.value, text: renderRecipe(result.value), cached };
}
