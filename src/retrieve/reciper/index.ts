export {
  type ExtractRecipesOptions,
  type ExtractRecipesSummary,
  extractRecipesInto,
} from './extract-recipes.js';
export {
  type ExtractRecipeOptions,
  extractRecipe,
  paperSha256,
  RECIPE_MAX_CHARS,
  type Recipe,
  type RecipeResult,
  RecipeSchema,
  recipeMessages,
  recipePromptVersion,
  renderRecipe,
} from './recipe.js';
export {
  type RecipeRow,
  RecipeRowSchema,
  type RecipesWork,
  readRecipes,
  recipesFilePlan,
  recipesManifest,
  type StoredRecipe,
  type StoredRecipes,
} from './recipe-file.js';
export {
  bestPerDocument,
  type Candidate,
  overlap,
  type PublicVariantOptions,
  type RankedDocument,
  RECIPER_LAMBDA,
  type ReciperMethod,
  rankByMethod,
  reciperPublicRank,
  reciperRank,
  type Stream,
  wordSet,
} from './reciper-fusion.js';
export { type RecipeDoc, ReciperRetriever } from './reciper-retriever.js';
export { EXPECTED_RECIPE_TOKENS, estimateRecipes } from './recipes-estimate.js';
