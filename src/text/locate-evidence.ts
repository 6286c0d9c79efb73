/**
 * Where a judge's evidence quote sits in the texts it was shown: the one locator every judge that
 * quotes evidence uses (VETSCORE verification, the rubric judge, ARGUE attestation and nugget
 * matching). It runs the quote matcher in `strict` mode (METHODS §1.2: `exact`, `no-space`, and
 * `gapped` for PDF furniture between the quote's words), with the project's one normaliser, so a
 * quote counts as found under exactly the rules the citation metrics use.
 *
 * Three outcomes: `located` (the source, the span in its original text, the matched text and the
 * rule), `unverified` (a quote that is in none of the sources, with the nearest passage as a
 * diagnostic), and `no-quote` (nothing to look for: absent, empty, or only quote marks and
 * punctuation). What a caller does with an unverified verdict is the caller's policy; the locator
 * only reports.
 */
import { matchQuote, type QuoteMatch } from './match-quote.js';
import { normalizeQuote } from './normalize.js';
import { type PreparedPaper, preparePaper } from './prepare-paper.js';

/** A text a judge was shown and may quote from: its key (excerpt key, document id, …) and text. */
export interface EvidenceSource {
  readonly key: string;
  readonly text: string;
}

/** A located quote: `[start, end)` in the source's original text, from the first to the last matched character. */
export interface GroundedSpan {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  /** `text.slice(start, end)` of the source: what a reader sees there. */
  readonly text: string;
  /** The strict matcher's rule: `exact`, `no-space` or `gapped`. */
  readonly rule: 'exact' | 'no-space' | 'gapped';
  /** The matched parts (one, or one per run of a `gapped` match, insertions excluded). */
  readonly spans: readonly { readonly start: number; readonly end: number }[];
}

/** The passage of the sources closest to an unlocated quote, and how close (`sequenceRatio`, 0–1). */
export interface NearestEvidence {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly similarity: number;
}

export type QuoteLocation =
  | { readonly status: 'located'; readonly span: GroundedSpan }
  | { readonly status: 'unverified'; readonly nearest: NearestEvidence | null }
  | { readonly status: 'no-quote' };

/** True when a quote has nothing to look for once normalised and stripped of edge marks. */
export function isEmptyQuote(quote: string | null | undefined): boolean {
  return quote == null || normalizeQuote(quote).text.length === 0;
}

function located(key: string, source: string, match: QuoteMatch): QuoteLocation {
  const spans = match.spans.map((s) => ({ start: s.start, end: s.end }));
  const start = spans[0]!.start;
  const end = spans[spans.length - 1]!.end;
  const rule = match.rule as GroundedSpan['rule'];
  return { status: 'located', span: { key, start, end, text: source.slice(start, end), rule, spans } };
}

/**
 * Locates evidence quotes, preparing each source text once (a bounded cache keyed by the text, so
 * the same excerpt quoted by many verdicts is normalised and indexed once).
 */
export class QuoteLocator {
  private readonly prepared = new Map<string, PreparedPaper>();

  constructor(private readonly capacity = 256) {}

  private paper(text: string): PreparedPaper {
    let paper = this.prepared.get(text);
    if (paper) return paper;
    if (this.prepared.size >= this.capacity) this.prepared.delete(this.prepared.keys().next().value!);
    paper = preparePaper(text);
    this.prepared.set(text, paper);
    return paper;
  }

  /**
   * Looks for `quote` in each source in order and returns the first match; when none matches, the
   * nearest passage over all sources (the most similar; the earlier source on a tie).
   */
  locate(quote: string | null | undefined, sources: readonly EvidenceSource[]): QuoteLocation {
    if (quote == null || isEmptyQuote(quote)) return { status: 'no-quote' };
    let nearest: NearestEvidence | null = null;
    for (const source of sources) {
      const match = matchQuote(this.paper(source.text), quote, { mode: 'strict' });
      if (match.matched) return located(source.key, source.text, match);
      const near = match.nearest;
      if (near && (nearest === null || (match.similarity ?? 0) > nearest.similarity)) {
        nearest = { key: source.key, ...near, similarity: match.similarity ?? 0 };
      }
    }
    return { status: 'unverified', nearest };
  }
}

/** One-off `QuoteLocator.locate` (prepare-once caching only within the call). */
export function locateEvidence(
  quote: string | null | undefined,
  sources: readonly EvidenceSource[],
): QuoteLocation {
  return new QuoteLocator(sources.length + 1).locate(quote, sources);
}
