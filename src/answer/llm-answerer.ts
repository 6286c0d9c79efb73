import { type SettingValue, sha256Hex } from '../core/index.js';
import type { GenerateRequest, LlmProvider } from '../llm/index.js';
import { CHARS_PER_TOKEN } from '../llm/index.js';
import {
  type Answerer,
  type AnswerInput,
  type AnswerOutcome,
  type ContextMode,
  failedOutcome,
} from './answerer.js';
import {
  answerUserPrompt,
  BASELINE_PROMPT,
  CITATION_CONTRACT,
  FREE_TEXT_PROMPT,
  freeTextUserPrompt,
} from './contract-prompt.js';
import { parseEvidenceReply } from './evidence-parser.js';
import { type PassageSource, paperPassages } from './passage-source.js';

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
  /** Plain-text answer from retrieved context, no citation contract (`--free-text`). */
  freeText?: boolean;
  /** Where retrieved passages come from (default: BM25 over the row's paper). */
  passages?: PassageSource;
}

/**
 * What an LLM answerer sends for each row, without a model to send it to: the requests, and the
 * settings a run records. Needs only the model's id and context window, so `answer --dry-run` can
 * price a run before any key is set.
 */
export class AnswerPlanner {
  readonly id: string;
  readonly contract: boolean;
  readonly settings: Readonly<Record<string, SettingValue>>;

  constructor(
    protected readonly model: Pick<LlmProvider, 'id' | 'contextWindow'>,
    protected readonly options: LlmAnswererOptions = {},
  ) {
    this.id = model.id;
    this.contract = !options.baseline && !options.freeText;
    this.settings = {
      model: model.id,
      context: options.freeText ? 'retrieval' : (options.context ?? 'auto'),
      k: options.k ?? 8,
      retriever: options.passages?.id ?? 'bm25',
      contract: this.contract,
      free_text: options.freeText ?? false,
      prompt: promptVersion(this.contract, options.freeText ?? false),
      max_tokens: options.maxTokens ?? 1500,
      temperature: 0,
    };
  }

  /** The request sent for a row (null when the paper is missing): what `--dry-run` prices. */
  async request(
    input: AnswerInput,
    signal?: AbortSignal,
  ): Promise<{ mode: ContextMode; request: GenerateRequest } | null> {
    const context = await this.contextFor(input, signal);
    if (!context) return null;
    const system = this.options.freeText
      ? FREE_TEXT_PROMPT
      : this.contract
        ? CITATION_CONTRACT
        : BASELINE_PROMPT;
    return {
      mode: context.mode,
      request: {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: context.prompt },
        ],
        temperature: 0,
        maxTokens: this.options.maxTokens ?? 1500,
        ...(signal ? { signal } : {}),
      },
    };
  }

  /** The user message for a row, and which context mode produced it; null without a paper when one is needed. */
  async contextFor(
    input: AnswerInput,
    signal?: AbortSignal,
  ): Promise<{ mode: ContextMode; prompt: string } | null> {
    const source = this.options.passages ?? paperPassages;
    if (this.options.freeText) {
      if (!input.paper && source.needsPaper) return null;
      const passages = await source.passages(input, this.options.k ?? 8, signal);
      return { mode: 'retrieval', prompt: freeTextUserPrompt(input.row.question, passages) };
    }
    const paper = input.paper;
    if (!paper) return null;
    const window = this.model.contextWindow ?? this.options.defaultContextWindow ?? 32_000;
    const budgetChars = (window - (this.options.maxTokens ?? 1500) - 1000) * CHARS_PER_TOKEN;
    const mode = this.options.context ?? 'auto';
    if (mode === 'full' || (mode === 'auto' && paper.text.length <= budgetChars)) {
      return { mode: 'full', prompt: answerUserPrompt(input.row.question, paper.text, 'full') };
    }
    const passages = await source.passages(input, this.options.k ?? 8, signal);
    const text = passages.map((p) => `[${p.label}]\n${p.text}`).join('\n\n');
    return { mode: 'retrieval', prompt: answerUserPrompt(input.row.question, text, 'retrieval') };
  }
}

/** Answers with an LLM under the citation contract of METHODS §2.3 (or without it: baseline). */
export class LlmAnswerer extends AnswerPlanner implements Answerer {
  constructor(
    private readonly llm: LlmProvider,
    options: LlmAnswererOptions = {},
  ) {
    super(llm, options);
  }

  async answer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutcome> {
    const planned = await this.request(input, signal);
    if (!planned) return failedOutcome(`the text of paper ${input.row.paper_id} is not available`);
    const result = await this.llm.generate(planned.request);
    const meta = {
      contextMode: planned.mode,
      latencyMs: result.latencyMs,
      usage: result.usage
        ? { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens }
        : null,
      costUsd: result.costUsd,
      retries: result.retries,
      cached: result.cached,
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

/** A short hash of the prompts a run sends: a changed prompt is a different run. */
function promptVersion(contract: boolean, freeText: boolean): string {
  if (freeText) return sha256Hex(FREE_TEXT_PROMPT + freeTextUserPrompt('{question}', [])).slice(0, 12);
  const user =
    answerUserPrompt('{question}', '{context}', 'full') +
    answerUserPrompt('{question}', '{context}', 'retrieval');
  return sha256Hex((contract ? CITATION_CONTRACT : BASELINE_PROMPT) + user).slice(0, 12);
}
