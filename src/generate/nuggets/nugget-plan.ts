/**
 * The `--dry-run` plan of `nuggets generate`: step 1's calls are known exactly (one summary and one
 * QA call per document not yet done; the QA prompt carries a summary of `summaryChars`); steps 2
 * and 3 depend on what step 1 returns, so their calls are estimated per document from the ratios
 * below (stated in the output; docs/nuggets.md compares them with measured runs).
 */

import type { ReportRequest } from '../../formats/index.js';
import type { ChatMessage } from '../../llm/index.js';
import { candidatePairs } from './candidate-pairs.js';
import type { DocumentQa } from './grounded-qa.js';
import { type NuggetDocument, requestPromptText } from './grounded-qa.js';
import { collectQuestions } from './paraphrase-merge.js';
import type { PipelineOptions, RequestInput } from './pipeline-options.js';
import { canonicalPrompt } from './prompts/canonical-prompt.js';
import { paraphrasePrompt } from './prompts/paraphrase-prompt.js';
import { qaPairsPrompt } from './prompts/qa-pairs-prompt.js';
import { summarizePrompt } from './prompts/summarize-prompt.js';
import { validateAnswersPrompt } from './prompts/validate-answers-prompt.js';
import { singleLinkClusters } from './union-find.js';

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
  const summarised = new Set<string>();
  for (const { input, doc } of pending) {
    // A document of several requests is summarised once (see `groundedQa`).
    const key = `${doc.language ?? ''}\u0000${doc.text}`;
    if (!summarised.has(key)) {
      summarised.add(key);
      calls.push({
        step: 'summary',
        messages: summarizePrompt(doc.text, doc.language),
        maxTokens: a.outputTokens.summary,
        count: 1,
      });
    }
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

export interface LaterCallsDeps {
  options: Pick<PipelineOptions, 'embed' | 'filterEnglish' | 'threshold' | 'exactLimit'>;
  /** The logged step-1 record of a document, if any. */
  qa: (requestId: string, docId: string) => DocumentQa | undefined;
  /** Whether a candidate pair's verification is logged. */
  verified: (requestId: string, q1: string, q2: string) => boolean;
  /** Whether the request's bank is written. */
  written: (request: ReportRequest) => boolean;
}

/**
 * For `--dry-run`: the calls of steps 2–3 still to make for requests whose documents are all
 * done (step 1 logged): the candidate pairs not yet verified exactly; canonical questions and
 * answer validations at most one per cluster of the candidate graph (verification can only split
 * clusters). A request whose bank is written and whose pairs are all verified has none left.
 */
export async function plannedLaterCalls(
  inputs: readonly RequestInput[],
  deps: LaterCallsDeps,
): Promise<{ requests: number; calls: PlannedCall[] }> {
  const calls: PlannedCall[] = [];
  let requests = 0;
  for (const input of inputs) {
    const id = input.request.id;
    const docs = input.docs.map((d) => deps.qa(id, d.id));
    if (docs.some((d) => !d)) continue;
    requests++;
    const { questions } = collectQuestions(docs as DocumentQa[], deps.options.filterEnglish ?? true);
    const texts = questions.map((q) => q.text);
    const vectors = texts.length > 1 ? await deps.options.embed(texts) : [];
    const found = candidatePairs(
      vectors,
      deps.options.threshold ?? 0.9,
      deps.options.exactLimit === undefined ? {} : { exactLimit: deps.options.exactLimit },
    );
    const pending = found.pairs.filter((p) => !deps.verified(id, texts[p.i]!, texts[p.j]!));
    if (pending.length === 0 && deps.written(input.request)) continue;
    for (const p of pending)
      calls.push({
        step: 'pair',
        messages: paraphrasePrompt(texts[p.i]!, texts[p.j]!),
        maxTokens: PLAN_ASSUMPTIONS.outputTokens.pair,
        count: 1,
      });
    const clusters = singleLinkClusters(
      texts.length,
      found.pairs.map((p) => [p.i, p.j] as const),
    );
    const request = requestPromptText(input.request);
    for (const c of clusters) {
      const members = c.map((i) => questions[i]!);
      if (c.length > 1) {
        calls.push({
          step: 'canonical',
          messages: canonicalPrompt(
            members.map((q) => q.text),
            request,
          ),
          maxTokens: PLAN_ASSUMPTIONS.outputTokens.canonical,
          count: 1,
        });
      }
      const answers = members.flatMap((q) => [...q.answers.keys()]);
      calls.push({
        step: 'validation',
        messages: validateAnswersPrompt(members[0]!.text, answers),
        maxTokens: PLAN_ASSUMPTIONS.outputTokens.validation,
        count: 1,
      });
    }
  }
  return { requests, calls };
}
