export * from './common/index.js';
export * from './defaults/index.js';
export * from './dense/index.js';
export * from './eval/index.js';
export * from './export/index.js';
export * from './fusion/index.js';
export * from './lexical/index.js';
export {
  type OpenedIndex,
  type OpenRetrieverOptions,
  openRetriever,
  RETRIEVAL_MODES,
  type RetrievalMode,
  type RetrievalNotice,
  recipesPathOf,
  type UsedRecipes,
} from './open-retriever.js';
export * from './passages/index.js';
export * from './persist/index.js';
export * from './reciper/index.js';
