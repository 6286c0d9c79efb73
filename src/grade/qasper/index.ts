export { normalizeAnswer, tokenF1 } from './answer-f1.js';
export {
  evaluateQasper,
  parseQasperPredictions,
  type QasperPrediction,
  type QasperScores,
} from './evaluate.js';
export { evidenceF1 } from './evidence-f1.js';
export {
  goldReferences,
  type QasperAnswer,
  type QasperAnswerType,
  type QasperReference,
  referenceOf,
} from './gold.js';
