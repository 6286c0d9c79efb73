/**
 * The GINGER-style baseline (DoGMaTiQ's ablation; Łajewska & Balog's GINGER writes one summary per
 * cluster of information nuggets): one sentence per paraphrase cluster stating what its answers
 * say. The released GINGER banks were produced by GINGER itself; this prompt is citegeist's own.
 */

import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';
import { stringifyPythonJson } from '../../../python-compat/index.js';

export const CLUSTER_SUMMARY_SYSTEM = `You summarise a cluster of answers that different documents gave to one question.
Write one self-contained sentence, in English, that states the information the answers give in response to the question, as a report would state it. Name the people, things and events; do not mention the documents or the question.
Reply with the sentence only.
${UNTRUSTED_NOTE}`;

export function clusterSummaryPrompt(question: string, answers: readonly string[]): ChatMessage[] {
  return [
    { role: 'system', content: CLUSTER_SUMMARY_SYSTEM },
    {
      role: 'user',
      content: `${delimit('question', question)}\n\n${delimit('answers', stringifyPythonJson(answers, { ensureAscii: false }))}\n\nWrite the sentence.`,
    },
  ];
}
