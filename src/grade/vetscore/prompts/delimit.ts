/** Moved to the LLM layer so every stage's prompts share it (generation may not import grade). */
export { delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';
