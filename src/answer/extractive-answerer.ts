import type { SettingValue } from '../core/index.js';
import { createAnalyzer, DEFAULT_ANALYZER } from '../retrieve/index.js';
import { splitSentences } from '../text/index.js';
import { type Answerer, type AnswerInput, type AnswerOutcome, failedOutcome } from './answerer.js';
import { parseEvidenceReply } from './evidence-parser.js';
import { type ContextPassage, type PassageSource, paperPassages } from './passage-source.js';

export interface ExtractiveOptions {
  /** Passages retrieved per question (default 8). */
  k?: number;
  /** Sentences in the answer (default 2). */
  maxSentences?: number;
  /** Minimum share of the question's content terms the best sentence must contain (default 0.34). */
  minCoverage?: number;
  /** Where passages come from (default: BM25 over the row's paper). */
  passages?: PassageSource;
  /** Answer in plain text without the citation contract (`answer --free-text`). */
  freeText?: boolean;
}

/** The refusal the extractive baseline gives when nothing in the paper scores. */
export const EXTRACTIVE_REFUSAL = 'The paper does not say.';

const YES_NO = /^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|may|might)\b/i;
const NEGATION = /\b(not|no|never|none|cannot|without|neither|nor|fails?|failed)\b|n't\b/i;

interface Candidate {
  text: string;
  coverage: number;
  score: number;
}

/**
 * A non-LLM answerer: retrieves the top-k passages (of the paper through its `PaperRetrieval` —
 * the measured within-paper default when the corpus has an index, else BM25 — or from a
 * `PassageSource` such as a whole corpus), scores their sentences
 * by the share of the question's content terms (stemmed, stop words removed) they contain, answers
 * with the best sentences and cites them verbatim under the citation contract. Yes/no questions
 * get "Yes" or "No" (negation in the best sentence → "No"). When no sentence reaches
 * `minCoverage`, it refuses ("The paper does not say."). Its reply is written in the contract
 * format and read back with the same parser as a model's. With `freeText` the answer is the plain
 * sentences (or "Yes."/"No."), without markers or evidence block, and `contract` is false.
 */
export class ExtractiveAnswerer implements Answerer {
  readonly id = 'extractive';
  readonly contract: boolean;
  private readonly analyze = createAnalyzer(DEFAULT_ANALYZER);
  private readonly source: PassageSource;

  readonly settings: Readonly<Record<string, SettingValue>>;

  constructor(private readonly options: ExtractiveOptions = {}) {
    this.contract = !options.freeText;
    this.source = options.passages ?? paperPassages;
    this.settings = {
      model: this.id,
      retriever: options.passages?.id ?? 'bm25',
      k: options.k ?? 8,
      max_sentences: options.maxSentences ?? 2,
      min_coverage: options.minCoverage ?? 0.34,
      free_text: options.freeText ?? false,
    };
  }

  async answer(input: AnswerInput, signal?: AbortSignal): Promise<AnswerOutcome> {
    const started = performance.now();
    if (!input.paper && this.source.needsPaper) {
      return failedOutcome(`the text of paper ${input.row.paper_id} is not available`);
    }
    const passages = await this.source.passages(input, this.options.k ?? 8, signal);
    const raw = this.reply(input, passages);
    if (!this.contract) {
      return { ...this.meta(started), answer: raw, citations: [], raw };
    }
    const parsed = parseEvidenceReply(raw);
    return {
      answer: parsed.answer,
      citations: parsed.citations,
      ...this.meta(started),
      raw,
    };
  }

  private meta(started: number) {
    return {
      contextMode: 'retrieval' as const,
      latencyMs: performance.now() - started,
      usage: null,
      costUsd: null,
      retries: 0,
      error: null,
    };
  }

  /** The reply for a row from its retrieved passages: contract format, or plain text with `freeText`. */
  reply({ row }: AnswerInput, passages: readonly ContextPassage[]): string {
    const terms = new Set(this.analyze(row.question));
    const candidates = terms.size > 0 ? this.candidates(passages, terms) : [];
    const best = candidates[0];
    if (!best || best.coverage < (this.options.minCoverage ?? 0.34)) return EXTRACTIVE_REFUSAL;
    const chosen = [best];
    for (const c of candidates.slice(1)) {
      if (chosen.length >= (this.options.maxSentences ?? 2)) break;
      if (c.coverage >= best.coverage * 0.75 && !chosen.some((x) => x.text === c.text)) chosen.push(c);
    }
    const quotes = chosen.map((c) => c.text.replace(/\s+/g, ' ').trim());
    if (this.options.freeText) {
      return YES_NO.test(row.question) ? (NEGATION.test(quotes[0] ?? '') ? 'No.' : 'Yes.') : quotes.join(' ');
    }
    const answer = YES_NO.test(row.question)
      ? `${NEGATION.test(quotes[0] ?? '') ? 'No' : 'Yes'} [^1].`
      : quotes.map((q, i) => `${q} [^${i + 1}]`).join(' ');
    const cited = YES_NO.test(row.question) ? quotes.slice(0, 1) : quotes;
    const block = cited.map((q, i) => `@cite[${i + 1}]\n"${q}"`).join('\n');
    return `${answer}\n\n---EVIDENCE---\n${block}\n---END-EVIDENCE---`;
  }

  private candidates(passages: readonly ContextPassage[], terms: Set<string>): Candidate[] {
    const out: Candidate[] = [];
    for (const { text: passage, rank } of passages) {
      for (const span of splitSentences(passage)) {
        const text = passage.slice(span.start, span.end);
        if (text.length < 20 || text.length > 800 || /^#{1,6}\s/.test(text)) continue;
        const words = new Set(this.analyze(text));
        let matched = 0;
        for (const t of terms) if (words.has(t)) matched++;
        const coverage = matched / terms.size;
        // Coverage first; the passage's retrieval rank breaks ties; long sentences pay a little.
        out.push({ text, coverage, score: coverage + 0.05 / (rank + 1) - text.length / 1e5 });
      }
    }
    return out.sort((a, b) => b.score - a.score);
  }
}
