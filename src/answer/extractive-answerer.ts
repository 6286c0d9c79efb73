import { createAnalyzer, DEFAULT_ANALYZER } from '../retrieve/index.js';
import { splitSentences } from '../text/index.js';
import { type Answerer, type AnswerInput, type AnswerOutcome, failedOutcome } from './answerer.js';
import { parseEvidenceReply } from './evidence-parser.js';

export interface ExtractiveOptions {
  /** Passages retrieved per question (default 8). */
  k?: number;
  /** Sentences in the answer (default 2). */
  maxSentences?: number;
  /** Minimum share of the question's content terms the best sentence must contain (default 0.34). */
  minCoverage?: number;
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
 * A non-LLM answerer: retrieves the top-k passages of the paper (the paper's `PaperRetrieval`:
 * the measured within-paper default when the corpus has an index, else BM25), scores their sentences
 * by the share of the question's content terms (stemmed, stop words removed) they contain, answers
 * with the best sentences and cites them verbatim under the citation contract. Yes/no questions
 * get "Yes" or "No" (negation in the best sentence → "No"). When no sentence reaches
 * `minCoverage`, it refuses ("The paper does not say."). Its reply is written in the contract
 * format and read back with the same parser as a model's.
 */
export class ExtractiveAnswerer implements Answerer {
  readonly id = 'extractive';
  readonly contract = true;
  private readonly analyze = createAnalyzer(DEFAULT_ANALYZER);

  constructor(private readonly options: ExtractiveOptions = {}) {}

  async answer(input: AnswerInput): Promise<AnswerOutcome> {
    const started = performance.now();
    if (!input.paper) return failedOutcome(`the text of paper ${input.row.paper_id} is not available`);
    const raw = await this.reply(input);
    const parsed = parseEvidenceReply(raw);
    return {
      answer: parsed.answer,
      citations: parsed.citations,
      contextMode: 'retrieval',
      latencyMs: performance.now() - started,
      usage: null,
      costUsd: null,
      retries: 0,
      error: null,
      raw,
    };
  }

  /** The contract-format reply for a row. */
  async reply({ row, paper }: AnswerInput): Promise<string> {
    const terms = new Set(this.analyze(row.question));
    const candidates = paper && terms.size > 0 ? await this.candidates(paper, row.question, terms) : [];
    const best = candidates[0];
    if (!best || best.coverage < (this.options.minCoverage ?? 0.34)) return EXTRACTIVE_REFUSAL;
    const chosen = [best];
    for (const c of candidates.slice(1)) {
      if (chosen.length >= (this.options.maxSentences ?? 2)) break;
      if (c.coverage >= best.coverage * 0.75 && !chosen.some((x) => x.text === c.text)) chosen.push(c);
    }
    const quotes = chosen.map((c) => c.text.replace(/\s+/g, ' ').trim());
    const answer = YES_NO.test(row.question)
      ? `${NEGATION.test(quotes[0] ?? '') ? 'No' : 'Yes'} [^1].`
      : quotes.map((q, i) => `${q} [^${i + 1}]`).join(' ');
    const cited = YES_NO.test(row.question) ? quotes.slice(0, 1) : quotes;
    const block = cited.map((q, i) => `@cite[${i + 1}]\n"${q}"`).join('\n');
    return `${answer}\n\n---EVIDENCE---\n${block}\n---END-EVIDENCE---`;
  }

  private async candidates(
    paper: NonNullable<AnswerInput['paper']>,
    question: string,
    terms: Set<string>,
  ): Promise<Candidate[]> {
    const out: Candidate[] = [];
    const hits = await paper.retrieve(question, this.options.k ?? 8);
    for (const [rank, { passage }] of hits.entries()) {
      for (const span of splitSentences(passage.text)) {
        const text = passage.text.slice(span.start, span.end);
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
