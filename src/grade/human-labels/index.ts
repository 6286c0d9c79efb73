export { ALCE_UTILITY_SCALE, readAlceUtility } from './alce-utility.js';
export { CHECK_COVID_SCALE, readCheckCovid } from './check-covid.js';
export {
  CROWDRAG_DIMENSIONS,
  CROWDRAG_SCALE,
  type CrowdragDimension,
  type CrowdragLlmRating,
  crowdragItemId,
  readCrowdrag25,
  readCrowdragLlmRatings,
} from './crowdrag25.js';
export {
  alphaLevel,
  categoryCodes,
  describeScale,
  type HumanItem,
  type HumanLabel,
  type HumanSet,
  type LabelScale,
  parseLabel,
  type ScaleCategory,
  type ScaleKind,
} from './human-set.js';
export { type JudgeLabels, readLabelFile } from './label-file.js';
export {
  RAGCHECKER_DIMENSIONS,
  RAGCHECKER_SCALE,
  type RagcheckerDimension,
  readRagchecker,
  readRagcheckerScores,
} from './ragchecker.js';
export { rescaledScoreDifferences } from './score-differences.js';
export type { SetFileReads } from './set-files.js';
export { HUMAN_SETS, type HumanSetName, readHumanSet } from './sets.js';
