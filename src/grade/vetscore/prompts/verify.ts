import { z } from 'zod';
import type { ChatMessage } from '../../../llm/index.js';
import type { Excerpt } from '../segment.js';
import { delimit, UNTRUSTED_NOTE, VERBATIM_QUOTE_NOTE } from './delimit.js';

export const VerificationSchema = z.object({
  verdict: z.enum(['supported', 'unsupported', 'contradicted']),
  rationale: z.string(),
  evidence_quote: z.string().nullish(),
});
export type Verification = z.infer<typeof VerificationSchema>;

/** METHODS §3.3, verification judge: is the claim supported by the segment's cited excerpts? */
export function verifyPrompt(input: { claim: string; excerpts: Excerpt[] }): ChatMessage[] {
  const system = [
    'You check one claim against the source excerpts it cites.',
    '"supported": the excerpts state the claim or directly entail it, including every number, unit,',
    'species and condition in it. "contradicted": the excerpts state something incompatible with the',
    'claim (e.g. a different dose). "unsupported": neither; the excerpts do not say it, even if it is',
    'true in general. Use only the excerpts, not your own knowledge.',
    'When supported, put into evidence_quote the shortest passage of one excerpt that supports it.',
    VERBATIM_QUOTE_NOTE,
    UNTRUSTED_NOTE,
    'Reply with JSON: {"verdict": "supported"|"unsupported"|"contradicted", "rationale": "one or two',
    'sentences", "evidence_quote": "verbatim text of one excerpt (only when supported)"}.',
  ].join(' ');
  const excerpts = input.excerpts.map((e) => delimit('excerpt', e.text, { key: e.key }));
  const user = [...excerpts, delimit('claim', input.claim), 'Is the claim supported by the excerpts?'].join(
    '\n\n',
  );
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
