export { type Retriever, type ScoredPassage, scoredPassage } from './retriever.js';
export { TopK } from './top-k.js';
