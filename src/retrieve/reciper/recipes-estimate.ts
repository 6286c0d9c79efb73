import type { Document, RunManifest } from '../../core/index.js';
import { inspectRunFile } from '../../io/index.js';
import { type CostEstimate, estimateCost, type PriceTable } from '../../llm/index.js';
import { recipeMessages } from './recipe.js';
import { type RecipesWork, recipesFilePlan } from './recipe-file.js';

/**
 * Output tokens assumed per paper for an estimate: a material, a method line, 5–10 one-sentence
 * steps and 2–5 key points come to roughly 200–500 tokens of JSON; the estimate takes the top.
 */
export const EXPECTED_RECIPE_TOKENS = 500;

/**
 * What extracting recipes into `out` would do (`recipes extract --dry-run`): the papers left, and
 * their cost priced from the very messages a run would send. Reads the recipes file without
 * changing it or taking its lock; a file of another run is refused as a run would refuse it.
 */
export function estimateRecipes(
  out: string,
  manifest: RunManifest,
  docs: readonly Document[],
  o: { retryFailed: boolean; prices?: PriceTable | undefined },
): { work: RecipesWork; estimate: CostEstimate } {
  const plan = recipesFilePlan(manifest, docs, { retryFailed: o.retryFailed });
  const work = plan.work(inspectRunFile(out, plan.fileOptions).kept);
  const maxChars = Number(manifest.settings.max_chars);
  const estimate = estimateCost(
    String(manifest.settings.model),
    work.todo.map((d) => ({ messages: recipeMessages(d, maxChars) })),
    { ...(o.prices ? { prices: o.prices } : {}), expectedOutputTokens: EXPECTED_RECIPE_TOKENS },
  );
  return { work, estimate };
}
