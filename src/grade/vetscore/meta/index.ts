export { type AlignedClaim, type Alignment, alignClaims, claimKey } from './align.js';
export { type Annotation, type AnnotationProblem, readAnnotations } from './annotations.js';
export { type RunPairConsistency, runConsistency } from './consistency.js';
export { type HarmAggregate, type HarmAggregator, meanHarm } from './harm-aggregate.js';
export {
  type CorrelationWithCi,
  type MetaEvalReport,
  metaEvaluateFaithfulness,
  weightedSupport,
} from './meta-eval.js';
export { type PcmHarmDetails, pcmHarm } from './pcm-harm.js';
