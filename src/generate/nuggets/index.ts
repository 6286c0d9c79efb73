export { QUALITY_FEATURES, qualityFeatures } from './quality-features.js';
export {
  byCounts,
  SELECT_METHODS,
  type SelectionReport,
  type SelectMethod,
  type SelectOptions,
  selectNuggets,
} from './select-nuggets.js';
export {
  featureRow,
  loadSelector,
  SELECTOR_FORMAT,
  type Selector,
  SelectorSchema,
  scoreRequest,
  standardise,
  type TrainingGroup,
  trainSelector,
} from './selector.js';
