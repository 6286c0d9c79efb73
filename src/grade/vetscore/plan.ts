import type { ChatMessage } from '../../llm/index.js';
import type { FaithfulnessInput } from './input.js';
import { decomposePrompt, harmPrompt, jointPrompt, verifyPrompt } from './prompts/index.js';
import { segmentAnswer } from './segment.js';

/** The requests a run would send, per role, for a `--dry-run` estimate. */
export interface FaithfulnessPlan {
  answers: number;
  segments: number;
  /** Claims are not known before decomposition: estimated as the segment's sentences (at least 1). */
  estimatedClaims: number;
  decomposer: { messages: ChatMessage[] }[];
  verifier: { messages: ChatMessage[] }[];
  harm: { messages: ChatMessage[] }[];
}

const sentences = (text: string) => Math.max(1, (text.match(/[.!?](?=\s|$)/g) ?? []).length);

/**
 * The prompts of a run without calling a model: decomposition prompts exactly, judge prompts per
 * estimated claim (the segment text stands in for the claim), times the repeats. Uncited segments
 * need no verification call.
 */
export function planFaithfulness(
  inputs: FaithfulnessInput[],
  s: { mode: 'separate' | 'joint'; repeats: number; rubric: string },
): FaithfulnessPlan {
  const plan: FaithfulnessPlan = {
    answers: inputs.length,
    segments: 0,
    estimatedClaims: 0,
    decomposer: [],
    verifier: [],
    harm: [],
  };
  const k = Math.max(1, s.repeats);
  for (const input of inputs) {
    for (const segment of segmentAnswer(input.answer, input.sources)) {
      plan.segments++;
      plan.decomposer.push({
        messages: decomposePrompt({
          question: input.question,
          context: segment.context,
          segment: segment.text,
        }),
      });
      const claims = sentences(segment.text);
      plan.estimatedClaims += claims;
      const base = { question: input.question, segment: segment.text, claim: segment.text, rubric: s.rubric };
      for (let i = 0; i < claims * k; i++) {
        if (s.mode === 'joint')
          plan.verifier.push({ messages: jointPrompt({ ...base, excerpts: segment.excerpts }) });
        else {
          if (segment.excerpts.length > 0)
            plan.verifier.push({
              messages: verifyPrompt({ claim: segment.text, excerpts: segment.excerpts }),
            });
          plan.harm.push({ messages: harmPrompt(base) });
        }
      }
    }
  }
  return plan;
}
