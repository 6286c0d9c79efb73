export {
  type ExtractRecipeOptions,
  extractRecipe,
  type Recipe,
  type RecipeResult,
  RecipeSchema,
  renderRecipe,
} from './recipe.js';
export {
  type ExtractRecipesSummary,
  extractRecipes,
  JsonlRecipeStore,
  MemoryRecipeStore,
  type RecipeStore,
  recipeTexts,
  type StoredRecipe,
} from './recipe-store.js';
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
