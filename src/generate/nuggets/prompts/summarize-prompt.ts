/**
 * Step 1a, grounded QA: summarise one document in its own language. The released pipeline calls
 * `SUMMARIZE_SYSTEM` / `SUMMARIZE_USER.format(language=…, document=…)` from a `prompts` module it
 * does not publish (manestay/dogmatiq `step1_gen_qa.py`); these prompts are citegeist's own.
 */
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';

export const SUMMARIZE_SYSTEM = `You summarise documents for analysts who will write questions about them.
Write the summary in the document's own language. Keep every concrete fact a reader could ask about: who, what, when, where, how many, why, and the outcome. Leave out opinions of your own and anything the document does not say.
Write plain prose, at most 250 words, no headings and no lists.
${UNTRUSTED_NOTE}`;

/** `language`: the document's language by name (e.g. "Chinese"), or null when unknown. */
export function summarizePrompt(document: string, language: string | null): ChatMessage[] {
  const lang = language
    ? `The document is in ${language}; write the summary in ${language}.`
    : 'Write the summary in the language of the document.';
  return [
    { role: 'system', content: SUMMARIZE_SYSTEM },
    { role: 'user', content: `${delimit('document', document)}\n\n${lang}` },
  ];
}
