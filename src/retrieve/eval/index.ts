export { formatFixed, formatFixed4 } from './c-format.js';
export {
  type CompareOptions,
  compareMeasure,
  compareRuns,
  formatComparison,
  type MeasureComparison,
} from './compare-runs.js';
export { formatTrecEval } from './format-trec-eval.js';
export { type ResolvedMeasure, resolveMeasures } from './measure-params.js';
export type { MeasureDef } from './measures/measure-def.js';
export { MEASURES, NICKNAMES } from './measures/measure-table.js';
export {
  type JudgmentGroup,
  type PrefEntry,
  type Prefs,
  parsePrefs,
  parseQrelsJg,
  parseQrelsPrefs,
  parseZScores,
  type QrelsJg,
  type ZScores,
} from './rel-info-files.js';
export { compareRunEntries, formResRels, type ResRels } from './res-rels.js';
export { docIdOfPassage, rollUpRun } from './roll-up.js';
export {
  perQueryValues,
  type RelInfo,
  type TrecEvalOptions,
  trecEval,
} from './trec-eval.js';
export type { TrecEvalResult, TrecValue } from './trec-eval-result.js';
export { isTrecEvalStopped, TrecEvalStopped } from './trec-eval-stopped.js';
