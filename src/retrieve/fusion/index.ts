export { byScore, naiveFusion, rrfFusion, weightedFusion } from './fusion.js';
export { FUSION_DEPTH, type FusionConfig, type FusionMethod, fuseLists, HybridRetriever } from './hybrid.js';
