/**
 * Step 2, paraphrase verification: do two questions ask for the same information? The released
 * pipeline's `FindPairs.check_pairs_with_llm` and its prompt are not published
 * (manestay/dogmatiq `step2_merge_paraphrases.py` imports them from `find_pairs_lib`): this prompt
 * and its reply format are citegeist's own.
 */
import { z } from 'zod';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';

export const IDENTIFY_PARAPHRASE_SYSTEM = `You decide whether two questions are paraphrases: whether they express the same information need, so that one correct answer answers both.
Questions that differ only in wording, word order or detail that does not change what is asked are paraphrases. Questions about different people, times, places or aspects are not, even when they share most words.
Reply with JSON only: {"explanation": "<one sentence>", "paraphrase": "YES" or "NO"}
${UNTRUSTED_NOTE}`;

export const ParaphraseReplySchema = z.object({
  explanation: z.string().optional(),
  paraphrase: z.string(),
});

export function paraphrasePrompt(q1: string, q2: string): ChatMessage[] {
  return [
    { role: 'system', content: IDENTIFY_PARAPHRASE_SYSTEM },
    {
      role: 'user',
      content: `${delimit('question_1', q1)}\n\n${delimit('question_2', q2)}\n\nAre they paraphrases?`,
    },
  ];
}
