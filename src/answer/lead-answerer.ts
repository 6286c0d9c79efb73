import type { SettingValue } from '../core/index.js';
import { splitSentences } from '../text/index.js';
import { type Answerer, type AnswerInput, type AnswerOutcome, failedOutcome } from './answerer.js';
import { parseEvidenceReply } from './evidence-parser.js';

export interface LeadOptions {
  /** Sentences in the answer (default 2). */
  sentences?: number;
}

/**
 * The lead baseline, a second offline answerer to compare the extractive one against: whatever the
 * question, it answers with the paper's first sentences (of its first passages: the abstract, in
 * most papers) and cites them verbatim under the citation contract. It never refuses and never
 * reads the question, so it is the floor any question-aware answerer should clear — the
 * summarisation "lead-k" baseline (See et al. 2017) applied to QA.
 */
export class LeadAnswerer implements Answerer {
  readonly id = 'lead';
  readonly contract = true;
  readonly settings: Readonly<Record<string, SettingValue>>;

  constructor(private readonly options: LeadOptions = {}) {
    this.settings = { model: this.id, sentences: options.sentences ?? 2 };
  }

  async answer(input: AnswerInput): Promise<AnswerOutcome> {
    const started = performance.now();
    if (!input.paper) return failedOutcome(`the text of paper ${input.row.paper_id} is not available`);
    const quotes: string[] = [];
    const want = this.options.sentences ?? 2;
    for (const passage of input.paper.passages) {
      for (const span of splitSentences(passage.text)) {
        const text = passage.text.slice(span.start, span.end).replace(/\s+/g, ' ').trim();
        if (text.length >= 20 && text.length <= 800) quotes.push(text);
        if (quotes.length >= want) break;
      }
      if (quotes.length >= want) break;
    }
    const raw =
      quotes.length === 0
        ? 'The paper does not say.'
        : `${quotes.map((q, i) => `${q} [^${i + 1}]`).join(' ')}\n\n---EVIDENCE---\n${quotes
            .map((q, i) => `@cite[${i + 1}]\n"${q}"`)
            .join('\n')}\n---END-EVIDENCE---`;
    const parsed = parseEvidenceReply(raw);
    return {
      answer: parsed.answer,
      citations: parsed.citations,
      contextMode: 'full',
      latencyMs: performance.now() - started,
      usage: null,
      costUsd: null,
      retries: 0,
      error: null,
      raw,
    };
  }
}
