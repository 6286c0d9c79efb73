import { z } from 'zod';
import type { Document } from '../../core/index.js';
import type { LlmProvider } from '../../llm/index.js';

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

export interface ExtractRecipeOptions {
  /** Characters of paper text sent to the model (default 24,000, from the start). */
  maxChars?: number;
  signal?: AbortSignal;
}

export type RecipeResult =
  | { ok: true; recipe: Recipe; text: string }
  | { ok: false; reason: string; raw?: string };

/** Asks the model for one paper's recipe (schema-validated, with the LLM layer's repair loop). Never throws on model output. */
export async function extractRecipe(
  doc: Document,
  llm: LlmProvider,
  options: ExtractRecipeOptions = {},
): Promise<RecipeResult> {
  const body = doc.text.slice(0, options.maxChars ?? 24_000);
  const result = await llm.generateObject({
    schema: RecipeSchema,
    schemaName: 'recipe',
    temperature: 0,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `Title: ${doc.title}\n\n<paper>\n${body}\n</paper>` },
    ],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!result.ok) return { ok: false, reason: result.reason, raw: result.raw };
  return { ok: true, recipe: result.value, text: renderRecipe(result.value) };
}
