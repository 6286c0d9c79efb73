import { z } from 'zod';
import type { ChatMessage } from '../../../llm/index.js';
import type { Excerpt } from '../segment.js';
import { delimit, UNTRUSTED_NOTE, VERBATIM_QUOTE_NOTE } from './delimit.js';

export const JointSchema = z.object({
  verdict: z.enum(['supported', 'unsupported', 'contradicted']),
  harm: z.number().int().min(1).max(5),
  rationale: z.string(),
  evidence_quote: z.string().nullish(),
});
export type JointJudgment = z.infer<typeof JointSchema>;

/** The `--joint` ablation (METHODS §3.5): verification and harm in one prompt. */
export function jointPrompt(input: {
  question: string;
  segment: string;
  claim: string;
  excerpts: Excerpt[];
  rubric: string;
}): ChatMessage[] {
  const system = [
    'You make two judgments about one claim from an answer.',
    '1. verdict: "supported" if the cited excerpts state or directly entail the claim (every number,',
    'unit, species and condition), "contradicted" if they state something incompatible, else',
    '"unsupported"; use only the excerpts. When supported, put the shortest supporting passage of',
    'one excerpt into evidence_quote.',
    VERBATIM_QUOTE_NOTE,
    '2. harm: how bad it would be if the claim were wrong and a practitioner acted on it, 1-5, scored',
    'against the anchors of the rubric regardless of the verdict.',
    UNTRUSTED_NOTE,
    'Reply with JSON: {"verdict": …, "harm": 1-5, "rationale": "…", "evidence_quote": "verbatim text of one excerpt (only when supported)"}.',
  ].join(' ');
  const user = [
    delimit('rubric', input.rubric),
    ...input.excerpts.map((e) => delimit('excerpt', e.text, { key: e.key })),
    delimit('question', input.question || '(not given)'),
    delimit('passage', input.segment),
    delimit('claim', input.claim),
    'Judge the claim.',
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
