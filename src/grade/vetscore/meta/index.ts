export { type AlignedClaim, type Alignment, alignClaims, claimKey } from './align.js';
export { type Annotation, type AnnotationProblem, readAnnotations } from './annotations.js';
export { type RunPairConsistency, runConsistency } from './consistency.js';
export {
  type CorrelationWithCi,
  type HarmAggregate,
  type HarmAggregator,
  type MetaEvalReport,
  meanHarm,
  metaEvaluateFaithfulness,
  weightedSupport,
} from './meta-eval.js';
