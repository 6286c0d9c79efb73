import { z } from 'zod';
import type { ChatMessage } from '../../../llm/index.js';
import { delimit, UNTRUSTED_NOTE } from './delimit.js';

export const DecompositionSchema = z.object({ claims: z.array(z.string()) });
export type Decomposition = z.infer<typeof DecompositionSchema>;

/** METHODS §3.2: split one segment into atomic claims, resolving references from the context. */
export function decomposePrompt(input: {
  question: string;
  context: string;
  segment: string;
}): ChatMessage[] {
  const system = [
    'You split a passage of a long answer into atomic claims for fact checking.',
    'An atomic claim states exactly one checkable fact (one dose, one effect, one finding) and is',
    'understandable on its own: replace pronouns and references ("it", "this dose", "the study") by',
    'what they refer to, using the preceding text. Keep numbers, units, species and conditions exactly',
    'as written. Do not add facts, do not judge truth, ignore citation markers such as [1] or [^2].',
    'Split only the passage; the preceding text is context. Text with no factual content (a heading,',
    'a transition, a question back to the reader) has no claims: return an empty list.',
    UNTRUSTED_NOTE,
    'Reply with JSON: {"claims": ["…", "…"]}.',
  ].join(' ');
  const user = [
    delimit('question', input.question || '(not given)'),
    delimit('preceding_text', input.context || '(none: the passage starts the answer or its section)'),
    delimit('passage', input.segment),
    'List the atomic claims of the passage.',
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
