/**
 * The `--dry-run` plan of `nuggets generate`: step 1's calls are known exactly (one summary and one
 * QA call per document not yet done; the QA prompt carries a summary of `summaryChars`); steps 2
 * and 3 depend on what step 1 returns, so their calls are estimated per document from the ratios
 * below (stated in the output; docs/nuggets.md compares them with measured runs).
 */
import type { ChatMessage } from '../../llm/index.js';
import { type NuggetDocument, requestPromptText } from './grounded-qa.js';
import type { RequestInput } from './nugget-pipeline.js';
import { canonicalPrompt } from './prompts/canonical-prompt.js';
import { paraphrasePrompt } from './prompts/paraphrase-prompt.js';
import { qaPairsPrompt } from './prompts/qa-pairs-prompt.js';
import { summarizePrompt } from './prompts/summarize-prompt.js';
import { validateAnswersPrompt } from './prompts/validate-answers-prompt.js';

export const PLAN_ASSUMPTIONS = {
  /** A 250-word summary. */
  summaryChars: 1500,
  /** Unique questions per document after exact merges (the prompt asks for 1–6). */
  questionsPerDocument: 3.5,
  candidatePairsPerQuestion: 0.5,
  canonicalCallsPerQuestion: 0.15,
  validationCallsPerQuestion: 0.85,
  /** Tokens of output per call, by kind. */
  outputTokens: { summary: 350, qa: 250, pair: 40, canonical: 60, validation: 40 },
} as const;

export interface PlannedCall {
  step: 'summary' | 'qa' | 'pair' | 'canonical' | 'validation';
  messages: ChatMessage[];
  maxTokens: number;
  /** How many such calls (estimated steps give one representative call with a count). */
  count: number;
}

const question = 'What did the authors of the study measure in the second experiment?';

/** The calls a run would make for the documents not yet done. */
export function planGeneration(
  pending: readonly { input: RequestInput; doc: NuggetDocument }[],
  assumptions = PLAN_ASSUMPTIONS,
): { calls: PlannedCall[]; documents: number; estimatedQuestions: number } {
  const a = assumptions;
  const calls: PlannedCall[] = [];
  for (const { input, doc } of pending) {
    calls.push({
      step: 'summary',
      messages: summarizePrompt(doc.text, doc.language),
      maxTokens: a.outputTokens.summary,
      count: 1,
    });
    calls.push({
      step: 'qa',
      messages: qaPairsPrompt('x'.repeat(a.summaryChars), requestPromptText(input.request)),
      maxTokens: a.outputTokens.qa,
      count: 1,
    });
  }
  const questions = pending.length * a.questionsPerDocument;
  const request = pending[0] ? requestPromptText(pending[0].input.request) : '';
  const estimated: PlannedCall[] = [
    {
      step: 'pair',
      messages: paraphrasePrompt(question, question),
      maxTokens: a.outputTokens.pair,
      count: Math.round(questions * a.candidatePairsPerQuestion),
    },
    {
      step: 'canonical',
      messages: canonicalPrompt([question, question, question], request),
      maxTokens: a.outputTokens.canonical,
      count: Math.round(questions * a.canonicalCallsPerQuestion),
    },
    {
      step: 'validation',
      messages: validateAnswersPrompt(question, [
        'an answer of a few words',
        'another answer of a few words',
      ]),
      maxTokens: a.outputTokens.validation,
      count: Math.round(questions * a.validationCallsPerQuestion),
    },
  ];
  return {
    calls: [...calls, ...estimated.filter((c) => c.count > 0)],
    documents: pending.length,
    estimatedQuestions: questions,
  };
}
