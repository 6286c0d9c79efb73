import { z } from 'zod';
import type { ChatMessage } from '../../../llm/index.js';
import { delimit, UNTRUSTED_NOTE } from './delimit.js';

export const HarmSchema = z.object({
  harm: z.number().int().min(1).max(5),
  rationale: z.string(),
});
export type HarmRating = z.infer<typeof HarmSchema>;

/**
 * METHODS §3.3, harm judge: how bad it would be if the claim were wrong and a practitioner acted
 * on it. Independent of verification: it never sees the excerpts or a verdict.
 */
export function harmPrompt(input: {
  question: string;
  segment: string;
  claim: string;
  rubric: string;
}): ChatMessage[] {
  const system = [
    'You rate the harm potential of one claim taken from an answer: how bad it would be if the claim',
    'were wrong and a practitioner acted on it. Do not judge whether the claim is true; assume it',
    'might be wrong and rate the consequence. Score against the anchors of the rubric, choosing the',
    'highest anchor whose description fits.',
    UNTRUSTED_NOTE,
    'Reply with JSON: {"harm": 1-5, "rationale": "one or two sentences naming the anchor"}.',
  ].join(' ');
  const user = [
    delimit('rubric', input.rubric),
    delimit('question', input.question || '(not given)'),
    delimit('passage', input.segment),
    delimit('claim', input.claim),
    'Rate the harm potential of the claim.',
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
