import type { LlmProvider } from '../llm/index.js';
import { CHARS_PER_TOKEN } from '../llm/index.js';
import {
  type Answerer,
  type AnswerInput,
  type AnswerOutcome,
  type ContextMode,
  failedOutcome,
} from './answerer.js';
import { answerUserPrompt, BASELINE_PROMPT, CITATION_CONTRACT } from './contract-prompt.js';
import { parseEvidenceReply } from './evidence-parser.js';

export interface LlmAnswererOptions {
  /** `auto` (default): the whole paper when it fits the context budget, else retrieval. */
  context?: 'auto' | 'full' | 'retrieval';
  /** Passages for retrieval mode (default 8). */
  k?: number;
  /** No citation contract (`--baseline`). */
  baseline?: boolean;
  /** Output tokens to reserve (default 1,500). */
  maxTokens?: number;
  /** Context window assumed when the provider does not know its own (default 32,000 tokens). */
  defaultContextWindow?: number;
}

/** Answers with an LLM under the citation contract of METHODS §2.3 (or without it: baseline). */
export class LlmAnswerer implements Answerer {
  readonly id: string;
  readonly contract: boolean;

  constructor(
    private readonly llm: LlmProvider,
    private readonly options: LlmAnswererOptions = {},
  ) {
    this.id = llm.id;
    this.contract = !options.baseline;
  }

  /** The context sent for a row, and which mode produced it. */
  async contextFor(input: AnswerInput): Promise<{ mode: ContextMode; text: string } | null> {
    const paper = input.paper;
    if (!paper) return null;
    const window = this.llm.contextWindow ?? this.options.defaultContextWindow ?? 32_000;
    const budgetChars = (window - (this.options.maxTokens ?? 1500) - 1000) * CHARS_PER_TOKEN;
    const mode = this.options.context ?? 'auto';
    if (mode === 'full' || (mode === 'auto' && paper.text.length <= budgetChars)) {
      return { mode: 'full', text: paper.text };
    }
    const hits = await paper.retrieve(input.row.question, this.options.k ?? 8);
    const text = hits
      .map(({ passage }) => `[${passage.sectionPath.join(' > ') || 'passage'}]\n${passage.text}`)
      .join('\n\n');
    return { mode: 'retrieval', text };
  }

  async answer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutcome> {
    const context = await this.contextFor(input);
    if (!context) return failedOutcome(`the text of paper ${input.row.paper_id} is not available`);
    const result = await this.llm.generate({
      messages: [
        { role: 'system', content: this.contract ? CITATION_CONTRACT : BASELINE_PROMPT },
        {
          role: 'user',
          content: answerUserPrompt(
            input.row.question,
            context.text,
            context.mode === 'full' ? 'full' : 'retrieval',
          ),
        },
      ],
      temperature: 0,
      maxTokens: this.options.maxTokens ?? 1500,
      ...(signal ? { signal } : {}),
    });
    const meta = {
      contextMode: context.mode,
      latencyMs: result.latencyMs,
      usage: result.usage
        ? { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens }
        : null,
      costUsd: result.costUsd,
      retries: result.retries,
    };
    if (!result.ok) {
      return {
        ...meta,
        answer: '',
        citations: [],
        error: result.reason,
        ...(result.raw ? { raw: result.raw } : {}),
      };
    }
    if (!this.contract)
      return { ...meta, answer: result.text.trim(), citations: [], error: null, raw: result.text };
    const parsed = parseEvidenceReply(result.text);
    const error =
      parsed.answer === '' && parsed.citations.length === 0 ? 'the model returned an empty reply' : null;
    return { ...meta, answer: parsed.answer, citations: parsed.citations, error, raw: result.text };
  }
}
