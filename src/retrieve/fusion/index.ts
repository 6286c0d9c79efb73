export { byScore, naiveFusion, rrfFusion, weightedFusion } from './fusion.js';
export { type FusionMethod, HybridRetriever } from './hybrid.js';
