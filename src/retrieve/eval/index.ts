export { compareBytes } from './byte-order.js';
export {
  type CompareOptions,
  compareRuns,
  formatComparison,
  type MeasureComparison,
} from './compare-runs.js';
export { formatFixed4, formatTrecEval } from './format-trec-eval.js';
export { compareRunEntries, formResRels, type ResRels } from './res-rels.js';
export { docIdOfPassage, rollUpRun } from './roll-up.js';
export {
  perQueryValues,
  resolveMeasures,
  type TrecEvalOptions,
  type TrecEvalResult,
  type TrecValue,
  trecEval,
} from './trec-eval.js';
export {
  formatRun,
  parseQrels,
  parseRun,
  type Qrels,
  type QrelsEntry,
  type RankedResult,
  type Run,
  type RunEntry,
} from './trec-files.js';
export { MEASURES, type MeasureDef, NICKNAMES } from './trec-measures.js';
