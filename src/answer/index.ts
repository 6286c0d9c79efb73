export { answerUserPrompt, BASELINE_PROMPT, CITATION_CONTRACT } from './contract-prompt.js';
export {
  markerKeys,
  type ParsedReply,
  parseEvidenceReply,
  stripMarkers,
  stripQuoteMarks,
} from './evidence-parser.js';
