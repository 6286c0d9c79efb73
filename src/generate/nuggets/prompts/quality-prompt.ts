/**
 * Step 4 inputs, the quality criteria judged by a model (METHODS §5 step 4): vitality, the
 * personalisation matches and overall score, and ten general qualities, each on an anchored
 * scale. The released scores come from an evaluator it does not publish
 * (manestay/dogmatiq `run_on_nugget_bank.py`, `NuggetBankEvaluator`); the prompts, anchors and
 * reply formats here are citegeist's own, with the scales the released banks use: VITAL/OKAY,
 * matches in {0, 0.5, 0.8, 1}, overall and qualities 1–5.
 */
import { z } from 'zod';
import { type ChatMessage, delimit, UNTRUSTED_NOTE } from '../../../llm/index.js';

export const VITALITY_SYSTEM = `You judge one question that a report must answer (a "nugget"), for the report request given.
VITAL: a report that does not answer this question fails the request; the answer is central to what the user asked.
OKAY: answering it helps or adds context, but a report without it still serves the request.
Reply with JSON only: {"explanation": "<one sentence>", "vitality": "VITAL" or "OKAY"}
${UNTRUSTED_NOTE}`;

export const PERSONALIZATION_MATCHES = [
  'goal_match',
  'background_match',
  'role_match',
  'communication_match',
  'scope_match',
] as const;

export const PERSONALIZATION_SYSTEM = `You judge how well one question that a report must answer fits the user who asked for the report.
Score each match on this scale: 0 = does not fit at all; 0.5 = fits in part; 0.8 = fits well; 1 = fits exactly.
- goal_match: the question serves what the user wants to achieve with the report.
- background_match: it fits what the user already knows (neither too basic nor too specialised).
- role_match: it reflects the user's role or profession as the request states it (0 when the request names no role).
- communication_match: it is phrased the way this user would ask it.
- scope_match: it stays within the scope the request sets.
Then score overall personalisation from 1 to 5: 1 = written for nobody in particular; 2 = loosely related to this user; 3 = fits the topic but not the user; 4 = fits this user well; 5 = could only have been written for this user.
Reply with JSON only: {"goal_match": <0|0.5|0.8|1>, "background_match": …, "role_match": …, "communication_match": …, "scope_match": …, "overall": <1-5>}
${UNTRUSTED_NOTE}`;

export const GENERAL_QUALITIES = [
  'fluency',
  'clarity',
  'ambiguity',
  'relevance',
  'incompleteness',
  'assumptiveness',
  'multifaceted',
  'knowledge_intensiveness',
  'subjectiveness',
  'reasoning_intensiveness',
] as const;

export const GENERAL_QUALITIES_SYSTEM = `You rate one question that a report must answer on ten qualities, each from 1 to 5, using these anchors (1 = not at all, 3 = somewhat, 5 = completely or very much):
- fluency: it reads as natural, grammatical English.
- clarity: it is clear what is being asked.
- ambiguity: it can be read as asking different things (5 = very ambiguous).
- relevance: it matters for the report request.
- incompleteness: it lacks context needed to answer it (5 = very incomplete).
- assumptiveness: it presupposes facts that may not hold (5 = many assumptions).
- multifaceted: answering it needs several distinct pieces of information.
- knowledge_intensiveness: answering it needs specialised knowledge.
- subjectiveness: the answer is a matter of opinion or interpretation.
- reasoning_intensiveness: answering it needs reasoning over several facts, not just a look-up.
Reply with JSON only: {"fluency": <1-5>, "clarity": <1-5>, "ambiguity": <1-5>, "relevance": <1-5>, "incompleteness": <1-5>, "assumptiveness": <1-5>, "multifaceted": <1-5>, "knowledge_intensiveness": <1-5>, "subjectiveness": <1-5>, "reasoning_intensiveness": <1-5>}
${UNTRUSTED_NOTE}`;

const score = z.coerce.number();
export const VitalityReplySchema = z.looseObject({ vitality: z.string() });
export const PersonalizationReplySchema = z.looseObject({
  ...Object.fromEntries(PERSONALIZATION_MATCHES.map((k) => [k, score])),
  overall: score,
} as Record<(typeof PERSONALIZATION_MATCHES)[number] | 'overall', typeof score>);
export const GeneralQualitiesReplySchema = z.looseObject(
  Object.fromEntries(GENERAL_QUALITIES.map((k) => [k, score])) as Record<
    (typeof GENERAL_QUALITIES)[number],
    typeof score
  >,
);

export interface QualityRequest {
  background: string | null;
  problemStatement: string | null;
}

function requestBlock(request: QualityRequest): string {
  return delimit('request', `${request.background ?? ''}\n${request.problemStatement ?? ''}`.trim());
}

export function qualityPrompt(system: string, question: string, request: QualityRequest): ChatMessage[] {
  return [
    { role: 'system', content: system },
    {
      role: 'user',
      content: `${requestBlock(request)}\n\n${delimit('question', question)}\n\nJudge the question.`,
    },
  ];
}
