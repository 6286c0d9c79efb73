/**
 * Step 2, canonical question of a paraphrase cluster. The released code numbers the questions
 * from 1 in a JSON object (`json.dumps({j: q for j, q in enumerate(questions, 1)},
 * ensure_ascii=False, indent=2)`) and reads `{"index", "explanation"}` from the reply
 * (manestay/dogmatiq `step2_merge_paraphrases.py`, `get_canonical`); its
 * `GET_CANONICAL_QUESTION_*` prompts are not published: these are citegeist's own.
 */
import { z } from 'zod';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';
import { stringifyPythonJson } from '../../../python-compat/index.js';

export const GET_CANONICAL_QUESTION_SYSTEM = `You are given numbered questions that all ask for the same information, and the report request they serve.
Pick the one question that states this information need most clearly and completely, in the words a report reader would use.
Reply with JSON only: {"explanation": "<one sentence>", "index": <the number of the question>}
${UNTRUSTED_NOTE}`;

export const CanonicalReplySchema = z.looseObject({
  index: z.unknown().optional(),
  explanation: z.unknown().optional(),
});

export function canonicalPrompt(questions: readonly string[], request: string): ChatMessage[] {
  const numbered = stringifyPythonJson(Object.fromEntries(questions.map((q, i) => [String(i + 1), q])), {
    indent: 2,
    ensureAscii: false,
  });
  return [
    { role: 'system', content: GET_CANONICAL_QUESTION_SYSTEM },
    {
      role: 'user',
      content: `${delimit('request', request)}\n\n${delimit('questions', numbered)}\n\nWhich question is the best one?`,
    },
  ];
}
