/**
 * `--judge lexical`: a deterministic, offline ARGUE judge, a baseline so that the whole report
 * pipeline runs without a model (and a floor any model judge should beat). Terms are the
 * retrieval analyzer's (lower-cased, stemmed, stop words removed) unless noted.
 *
 * - attestation: the sentence is found in the cited text by the strict quote matcher, or at least
 *   `attestOverlap` of its terms occur in one sentence (or two adjacent sentences) of the text,
 *   which is then the evidence quote;
 * - relevance: at least `relevanceOverlap` of the terms of the request's title and problem
 *   statement occur in the cited text;
 * - nugget answers: an answer is given when all its word tokens (lower-cased and stemmed, stop
 *   words kept) occur in the sentence; the match quotes the sentence from the first to the last
 *   word holding those tokens (its evidence, grounded like a model judge's);
 * - uncited sentences: a negative assertion has a negation cue; a claim needs a citation when it
 *   has a number or at least `claimWords` words; it is a repeat when `repeatOverlap` of its terms
 *   occur in one earlier sentence.
 */

import { scored, type Verdict } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import { createAnalyzer, DEFAULT_ANALYZER } from '../../retrieve/index.js';
import { matchQuote, splitSentences } from '../../text/index.js';
import type { CitedDocument } from './documents.js';
import type { MatchedNugget } from './judgments.js';
import type { Attestation, JudgeNugget, ReportJudge } from './report-judge.js';

export interface LexicalJudgeOptions {
  attestOverlap?: number;
  relevanceOverlap?: number;
  repeatOverlap?: number;
  claimWords?: number;
}

export const LEXICAL_DEFAULTS: Required<LexicalJudgeOptions> = {
  attestOverlap: 0.7,
  relevanceOverlap: 0.25,
  repeatOverlap: 0.8,
  claimWords: 8,
};

const NEGATION = /\b(not|no|never|none|nothing|neither|nor|cannot|without|lacks?|absent)\b|n't\b/i;

export class LexicalJudge implements ReportJudge {
  readonly id: string;
  private readonly o: Required<LexicalJudgeOptions>;
  private readonly terms = createAnalyzer(DEFAULT_ANALYZER);
  private readonly words = createAnalyzer({ stem: true, stopwords: false });
  private readonly docSentences = new Map<string, { text: string; terms: Set<string> }[]>();

  constructor(options: LexicalJudgeOptions = {}) {
    this.o = { ...LEXICAL_DEFAULTS, ...options };
    const { attestOverlap, relevanceOverlap, repeatOverlap, claimWords } = this.o;
    this.id = `lexical(attest≥${attestOverlap},relevance≥${relevanceOverlap},repeat≥${repeatOverlap},claim≥${claimWords}w)`;
  }

  async attest(sentence: string, doc: CitedDocument): Promise<Verdict<Attestation>> {
    if (matchQuote(doc.text, sentence, { mode: 'strict', nearest: false }).matched) {
      return scored({ attested: true, evidenceQuote: sentence }, 'the sentence is quoted verbatim');
    }
    const wanted = new Set(this.terms(sentence));
    if (wanted.size === 0)
      return scored({ attested: false, evidenceQuote: null }, 'the sentence has no content terms');
    let best = { share: 0, text: '' };
    const sentences = this.sentencesOf(doc);
    for (let i = 0; i < sentences.length; i++) {
      const one = sentences[i]!;
      const two = sentences[i + 1];
      for (const window of two ? [[one], [one, two]] : [[one]]) {
        let hit = 0;
        for (const t of wanted) if (window.some((w) => w.terms.has(t))) hit++;
        const share = hit / wanted.size;
        if (share > best.share) best = { share, text: window.map((w) => w.text).join(' ') };
      }
    }
    const attested = best.share >= this.o.attestOverlap;
    return scored(
      { attested, evidenceQuote: attested ? best.text : null },
      `${Math.round(best.share * 100)}% of the sentence's terms in the best passage`,
    );
  }

  async relevance(request: ReportRequest, doc: CitedDocument): Promise<Verdict<boolean>> {
    const wanted = new Set(this.terms([request.title, request.problemStatement].filter(Boolean).join(' ')));
    if (wanted.size === 0) return scored(true, 'the request has no title or problem statement terms');
    const have = new Set(this.terms(doc.text));
    let hit = 0;
    for (const t of wanted) if (have.has(t)) hit++;
    return scored(hit / wanted.size >= this.o.relevanceOverlap, `${hit} of ${wanted.size} request terms`);
  }

  async matchNuggets(
    sentence: string,
    _request: ReportRequest,
    nuggets: JudgeNugget[],
  ): Promise<Verdict<MatchedNugget[]>> {
    const have = new Set(this.words(sentence.normalize('NFKC')));
    const out: MatchedNugget[] = [];
    for (const n of nuggets) {
      const used = new Set<string>();
      const matched = n.answers.filter((a) => {
        const tokens = this.words(a.normalize('NFKC'));
        const given = tokens.length > 0 && tokens.every((t) => have.has(t));
        if (given) for (const t of tokens) used.add(t);
        return given;
      });
      if (matched.length > 0)
        out.push({
          question_text: n.question,
          matched_answer: matched,
          importance: n.importance,
          sentence_quote: this.wordsHolding(sentence, used),
        });
    }
    return scored(out);
  }

  /**
   * The passage of the sentence from the first to the last word holding one of `tokens` (first
   * occurrences), or the whole sentence when a token cannot be placed on a word of its own.
   */
  private wordsHolding(sentence: string, tokens: ReadonlySet<string>): string {
    const at = new Map<string, { start: number; end: number }>();
    for (const m of sentence.matchAll(/[\p{L}\p{N}]+/gu)) {
      for (const t of this.words(m[0].normalize('NFKC'))) {
        if (!at.has(t)) at.set(t, { start: m.index, end: m.index + m[0].length });
      }
    }
    const spans = [...tokens].map((t) => at.get(t));
    if (spans.some((s) => s === undefined)) return sentence;
    const start = Math.min(...spans.map((s) => s!.start));
    const end = Math.max(...spans.map((s) => s!.end));
    return sentence.slice(start, end);
  }

  async requiresCitation(sentence: string): Promise<Verdict<boolean>> {
    const words = sentence.split(/\s+/).filter(Boolean).length;
    return scored(/\d/.test(sentence) || words >= this.o.claimWords);
  }

  async firstInstance(sentence: string, previous: string[]): Promise<Verdict<boolean>> {
    const wanted = new Set(this.terms(sentence));
    if (wanted.size === 0) return scored(true);
    for (const p of previous) {
      const have = new Set(this.terms(p));
      let hit = 0;
      for (const t of wanted) if (have.has(t)) hit++;
      if (hit / wanted.size >= this.o.repeatOverlap) return scored(false, 'repeats an earlier sentence');
    }
    return scored(true);
  }

  async negative(sentence: string): Promise<Verdict<boolean>> {
    return scored(NEGATION.test(sentence));
  }

  private sentencesOf(doc: CitedDocument) {
    let out = this.docSentences.get(doc.id);
    if (!out) {
      out = splitSentences(doc.text).map((s) => ({ text: s.text, terms: new Set(this.terms(s.text)) }));
      if (this.docSentences.size > 10_000) this.docSentences.clear();
      this.docSentences.set(doc.id, out);
    }
    return out;
  }
}
