/**
 * Step 1b, grounded QA: 1–6 question-answer pairs in English from a document's summary and the
 * report request, the answer written before its question so that every question has an answer in
 * the document. The released pipeline's `WRITE_QA_PAIRS_*` prompts are not published
 * (manestay/dogmatiq `step1_gen_qa.py`): these are citegeist's own. The request is
 * `background + "\n" + problem_statement`, as the released code builds it.
 */
import { z } from 'zod';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';

export const WRITE_QA_PAIRS_SYSTEM = `You write the facts a report must contain as question-answer pairs.
Given a summary of one document and a report request, write between 1 and 6 pairs, in English whatever the language of the summary, about facts in the summary that a report answering the request should state.
For each pair write the ANSWER FIRST, copied or closely paraphrased from the summary and as short as possible (a name, number, date, short phrase), THEN the question that this answer answers. The question must be understandable on its own: name the people, things and events it is about, never "the document" or "this article".
Write no pair about anything the summary does not state. If the summary has nothing relevant to the request, return [].
Reply with JSON only: [{"answer": "...", "question": "..."}, ...]
${UNTRUSTED_NOTE}`;

export const QaPairsSchema = z.array(z.object({ answer: z.string(), question: z.string() }));

export function qaPairsPrompt(summary: string, request: string): ChatMessage[] {
  return [
    { role: 'system', content: WRITE_QA_PAIRS_SYSTEM },
    {
      role: 'user',
      content: `${delimit('request', request)}\n\n${delimit('summary', summary)}\n\nWrite the question-answer pairs.`,
    },
  ];
}
