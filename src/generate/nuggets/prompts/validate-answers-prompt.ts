/**
 * Step 3, answer validation: the model keeps or drops each answer of a nugget and decides whether
 * a report needs all of them (AND) or any one (OR). The released code sends the answers as
 * `json.dumps({"1": a1, "2": a2, …})` and reads `[{"1": "YES"|"NO", …}, "AND"|"OR"]` for several
 * answers, and a reply starting with "NO" (drop the nugget) or not for a single answer
 * (manestay/dogmatiq `step3_process_answers.py`, `aggregate_nugget_bank`); its
 * `AGGREGATE_ANSWERS_*` prompts are not published: these are citegeist's own.
 */

import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';
import { stringifyPythonJson } from '../../../python-compat/index.js';

export const AGGREGATE_ANSWERS_SYSTEM_MULTI = `You check the answers that were extracted from different documents for one question.
For each numbered answer decide whether it is a valid answer to the question: YES if it answers what is asked, NO if it answers something else, says the information is missing, or is too vague to be checked.
Then decide how the valid answers combine: "AND" if they are different parts of one complete answer (a report must give all of them), "OR" if each one alone answers the question (they are alternatives or restatements).
Reply with JSON only, a list of two items: [{"1": "YES" or "NO", "2": "YES" or "NO", ...}, "AND" or "OR"]
${UNTRUSTED_NOTE}`;

export const AGGREGATE_ANSWERS_SYSTEM_SINGLE = `You check an answer that was extracted from a document for a question.
Reply YES if it is a valid answer to the question, or NO if it answers something else, says the information is missing, or is too vague to be checked. Reply with the one word only.
${UNTRUSTED_NOTE}`;

export function validateAnswersPrompt(question: string, answers: readonly string[]): ChatMessage[] {
  if (answers.length > 1) {
    // `json.dumps` defaults: ASCII escapes, ", " and ": " separators.
    const numbered = stringifyPythonJson(Object.fromEntries(answers.map((a, i) => [String(i + 1), a])));
    return [
      { role: 'system', content: AGGREGATE_ANSWERS_SYSTEM_MULTI },
      {
        role: 'user',
        content: `${delimit('question', question)}\n\n${delimit('answers', numbered)}\n\nJudge the answers.`,
      },
    ];
  }
  return [
    { role: 'system', content: AGGREGATE_ANSWERS_SYSTEM_SINGLE },
    {
      role: 'user',
      content: `${delimit('question', question)}\n\n${delimit('answer', answers[0] ?? '')}\n\nIs it a valid answer?`,
    },
  ];
}
