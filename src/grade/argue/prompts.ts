/**
 * The ARGUE judge prompts. The questions are ARGUE's (Mayfield et al., SIGIR 2024) as Auto-ARGUE
 * asks them: is the sentence entailed by the cited document (YES/NO), is the document relevant to
 * the request, which nugget answers does the sentence give, and for uncited sentences: negative
 * assertion? needs a citation? first instance? The wording is ours; replies are JSON validated by
 * the schemas below. Report and document text is untrusted and delimited. Where a reply claims
 * support (attested, a nugget answer given) it quotes its evidence verbatim, and is told that the
 * quote is checked (`judge-report.ts` locates it; one not found does not count).
 */
import { z } from 'zod';
import { type ReportRequest, requestText } from '../../formats/index.js';
import type { ChatMessage } from '../../llm/index.js';
import { delimit, UNTRUSTED_NOTE } from '../vetscore/prompts/delimit.js';
import type { JudgeNugget } from './report-judge.js';

export const AttestSchema = z.object({
  attested: z.boolean(),
  evidence_quote: z.string().nullish(),
  rationale: z.string().optional(),
});
export const RelevanceSchema = z.object({ relevant: z.boolean() });
/** The reply schema for these nuggets: question and answer numbers must exist (else repaired). */
export function nuggetMatchSchema(nuggets: readonly JudgeNugget[]) {
  // The widest answer list bounds every answer number in the schema the model sees; the refinement
  // below checks each against its own question.
  const widest = Math.max(1, ...nuggets.map((n) => n.answers.length));
  return z
    .object({
      matches: z.array(
        z.object({
          question: z.number().int().min(1).max(Math.max(1, nuggets.length)),
          answers: z.array(z.number().int().min(1).max(widest)),
          /** The words of the sentence that give the answers, verbatim (checked against the sentence). */
          sentence_quote: z.string().nullish(),
        }),
      ),
    })
    .superRefine((v, ctx) => {
      v.matches.forEach((m, i) => {
        const count = nuggets[m.question - 1]?.answers.length ?? 0;
        m.answers.forEach((a, j) => {
          if (a > count) {
            ctx.addIssue({
              code: 'custom',
              path: ['matches', i, 'answers', j],
              message: `Q${m.question} has ${count} answers; there is no A${a}`,
            });
          }
        });
      });
    });
}
export const YesNoSchema = z.object({ answer: z.boolean() });

const system = (...lines: string[]): ChatMessage => ({
  role: 'system',
  content: [...lines, UNTRUSTED_NOTE].join(' '),
});

/** Clips a long document for the prompt, saying that it was clipped. */
export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters not shown]`;
}

export function attestPrompt(sentence: string, document: string): ChatMessage[] {
  return [
    system(
      'You decide whether a sentence of a report is supported by the document it cites.',
      'It is supported only if the document entails it: every fact, number and qualifier in the sentence is stated',
      'in the document or follows directly from it. Use only the document, not your own knowledge.',
      'When it is supported, copy into evidence_quote the shortest passage of the document that supports it, character for',
      'character: one contiguous passage, no paraphrase, no ellipsis, no added or changed words. The quote is checked',
      'against the document; a sentence whose quote is not found there is counted as not supported.',
      'Reply with JSON: {"attested": true|false, "evidence_quote": "verbatim text or null", "rationale": "one sentence"}.',
    ),
    {
      role: 'user',
      content: `${delimit('document', document)}\n\n${delimit('sentence', sentence)}\n\nIs the sentence supported by the document?`,
    },
  ];
}

export function relevancePrompt(request: ReportRequest, document: string): ChatMessage[] {
  return [
    system(
      'You decide whether a document is relevant to a report request: whether it holds information that a report',
      'answering the request could use. Reply with JSON: {"relevant": true|false}.',
    ),
    {
      role: 'user',
      content: `${delimit('request', requestText(request))}\n\n${delimit('document', document)}\n\nIs the document relevant to the request?`,
    },
  ];
}

export function nuggetPrompt(sentence: string, nuggets: JudgeNugget[]): ChatMessage[] {
  const list = nuggets
    .map((n, i) => `Q${i + 1}. ${n.question}\n${n.answers.map((a, j) => `   A${j + 1}. ${a}`).join('\n')}`)
    .join('\n');
  return [
    system(
      'You check which questions a sentence of a report answers, and with which of the listed answers.',
      'An answer counts only when the sentence itself states it (same meaning; wording may differ).',
      'For each match, copy into sentence_quote the words of the sentence that state the answer, character for character:',
      'one contiguous passage of the sentence, no paraphrase. The quote is checked against the sentence; a match whose',
      'quote is not found there is not counted.',
      'Reply with JSON: {"matches": [{"question": <Q number>, "answers": [<A numbers>], "sentence_quote": "verbatim words of the sentence"}]};',
      'an empty list when none.',
    ),
    {
      role: 'user',
      content: `${delimit('questions', list)}\n\n${delimit('sentence', sentence)}\n\nWhich questions does the sentence answer?`,
    },
  ];
}

export function requiresCitationPrompt(sentence: string, request: ReportRequest): ChatMessage[] {
  return [
    system(
      'You decide whether a sentence of a report makes a factual claim that should be supported by a citation',
      '(findings, numbers, dates, events, attributions), as opposed to an introduction, transition or summary',
      'that needs none. Reply with JSON: {"answer": true|false}.',
    ),
    {
      role: 'user',
      content: `${delimit('request', requestText(request))}\n\n${delimit('sentence', sentence)}\n\nDoes the sentence need a citation?`,
    },
  ];
}

export function firstInstancePrompt(sentence: string, previous: string[]): ChatMessage[] {
  return [
    system(
      'You decide whether a sentence states a claim for the first time in a report, or repeats a claim made in an',
      'earlier sentence. Reply with JSON: {"answer": true|false}, true when it is the first time.',
    ),
    {
      role: 'user',
      content: `${delimit('earlier', previous.join('\n'))}\n\n${delimit('sentence', sentence)}\n\nIs this the first time the report makes this claim?`,
    },
  ];
}

export function negativePrompt(sentence: string): ChatMessage[] {
  return [
    system(
      'You decide whether a sentence is a negative assertion: it states that something is not the case, does not',
      'exist or was not found (e.g. "No trial has tested X"). Reply with JSON: {"answer": true|false}.',
    ),
    { role: 'user', content: `${delimit('sentence', sentence)}\n\nIs the sentence a negative assertion?` },
  ];
}
