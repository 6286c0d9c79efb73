import type { Document, EvidenceGroup } from '../core/index.js';
import { pageAt, sectionAt } from '../core/index.js';
import { type AlternativeMatch, type PaperQuotes, paperQuotes, strictRule } from '../grade/index.js';
import {
  type MatchMode,
  matchQuote,
  type PreparedPaper,
  preparePaper,
  type QuoteMatch,
  sequenceRatio,
} from '../text/index.js';
import type { CitationInfo, GoldAlternative, Mark } from './report-data.js';

/** The grader's verdict on a citation, when the grades row recorded it (`citation_rules`). */
export interface RecordedRule {
  rule: string;
  strict_rule: string;
  prefix_only: boolean;
}

/**
 * One paper as the report shows it: the quote matcher over its text (the grader's own rules), and
 * the highlighted spans (marks) that citations, gold alternatives and nearest passages point to.
 * Identical spans share one mark, so a quote cited by five runs is highlighted once.
 */
export class PaperEvidence {
  readonly marks: Mark[] = [];
  private readonly markIndex = new Map<string, number>();
  private readonly prepared: PreparedPaper;
  readonly quotes: PaperQuotes;
  private readonly matches = new Map<string, QuoteMatch>();

  constructor(
    readonly doc: Document,
    private readonly mode: MatchMode,
  ) {
    this.prepared = preparePaper(doc.text);
    this.quotes = paperQuotes(this.prepared, mode);
  }

  private mark(start: number, end: number, kind: Mark[2]): number {
    const key = `${start},${end},${kind}`;
    let at = this.markIndex.get(key);
    if (at === undefined) {
      at = this.marks.length;
      this.marks.push([start, end, kind]);
      this.markIndex.set(key, at);
    }
    return at;
  }

  private match(quote: string): QuoteMatch {
    let m = this.matches.get(quote);
    if (!m) {
      m = matchQuote(this.prepared, quote, { mode: this.mode, nearest: true });
      this.matches.set(quote, m);
    }
    return m;
  }

  /** Where a citation's quote is (or the nearest passage when it is not), under the grader's rule. */
  locate(quote: string, recorded: RecordedRule | undefined): Omit<CitationInfo, 'key' | 'quote' | 'gold'> {
    const m = this.match(quote);
    const rule = recorded?.rule ?? m.rule;
    const strict = recorded?.strict_rule ?? strictRule(this.prepared, quote, m.rule);
    const prefixOnly = recorded?.prefix_only ?? (rule !== 'none' && strict === 'none');
    const first = m.spans[0];
    const last = m.spans.at(-1);
    if (m.matched && first && last) {
      const at = first.start;
      return {
        rule,
        strict,
        prefixOnly,
        m: this.mark(at, last.end, prefixOnly ? 'p' : 'c'),
        page: pageAt(this.doc, at),
        section: sectionAt(this.doc, at)?.heading ?? null,
        near: null,
      };
    }
    const near = m.nearest
      ? {
          text: m.nearest.text,
          similarity: m.similarity ?? 0,
          m: this.mark(m.nearest.start, m.nearest.end, 'n'),
          page: pageAt(this.doc, m.nearest.start),
        }
      : null;
    return { rule, strict, prefixOnly, m: null, page: null, section: null, near };
  }

  /** A gold evidence alternative, highlighted where it is in the paper. */
  gold(text: string): GoldAlternative {
    const span = this.quotes.locate(text);
    if (!span) return { text, m: null, page: null };
    return { text, m: this.mark(span.start, span.end, 'g'), page: pageAt(this.doc, span.start) };
  }
}

/** A citation's located fields when the paper text is not available (the grader's rule only). */
export function unlocated(recorded: RecordedRule | undefined): Omit<CitationInfo, 'key' | 'quote' | 'gold'> {
  return {
    rule: recorded?.rule ?? 'unchecked',
    strict: recorded?.strict_rule ?? 'unchecked',
    prefixOnly: recorded?.prefix_only ?? false,
    m: null,
    page: null,
    section: null,
    near: null,
  };
}

/**
 * The first gold alternative a quote matches, in the grader's order (group by group, alternative by
 * alternative), with the difflib ratio `fuzzy_match(alternative, quote)` shown beside it in
 * researchqa mode (null in span mode, where a match is an overlap of located spans).
 */
export function goldMatch(
  quote: string,
  groups: readonly EvidenceGroup[],
  match: AlternativeMatch,
  paper: PaperQuotes | null,
  withRatio: boolean,
): CitationInfo['gold'] {
  for (const [g, group] of groups.entries()) {
    for (const [a, alternative] of group.alternatives.entries()) {
      let ok = false;
      try {
        ok = match(quote, alternative, paper);
      } catch {
        return null;
      }
      if (ok) {
        const ratio = withRatio ? sequenceRatio(alternative.toLowerCase(), quote.toLowerCase()) : null;
        return { g, a, ratio };
      }
    }
  }
  return null;
}
