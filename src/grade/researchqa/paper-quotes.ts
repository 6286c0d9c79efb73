import type { Span } from '../../core/index.js';
import {
  type MatchMode,
  type MatchRule,
  matchQuote,
  matchQuoteModes,
  type PreparedPaper,
  type QuoteMatch,
} from '../../text/index.js';
import type { PaperQuotes, QuoteCheck } from './citation-metrics.js';

/**
 * The quote matcher over one prepared paper, with memoised results (a run repeats quotes and
 * every alternative is located once per paper, not once per row). `check` also gives the rule of
 * each quote under the strict matcher, for `citation_accuracy_strict`.
 */
export function paperQuotes(paper: PreparedPaper, mode: MatchMode): PaperQuotes {
  const located = new Map<string, { span: Span | null; rule: MatchRule; strict?: MatchRule }>();
  const remember = (text: string, m: QuoteMatch, strict?: MatchRule) => {
    const found = { span: spanOf(m), rule: m.rule, ...(strict ? { strict } : {}) };
    located.set(text, found);
    return found;
  };
  return {
    check: (quote): QuoteCheck => {
      let found = located.get(quote);
      if (found === undefined) {
        if (mode === 'strict') {
          const m = matchQuote(paper, quote, { mode, nearest: false });
          found = remember(quote, m, m.rule);
        } else {
          const both = matchQuoteModes(paper, quote);
          found = remember(quote, both.researchqa, both.strict.rule);
        }
      }
      // A text located first as an evidence alternative has no strict rule yet.
      found.strict ??= mode === 'strict' ? found.rule : strictRule(paper, quote, found.rule);
      return { rule: found.rule, strictRule: found.strict };
    },
    locate: (text) =>
      (located.get(text) ?? remember(text, matchQuote(paper, text, { mode, nearest: false }))).span,
  };
}

/** A match's span: its only span, or the hull of a `gapped` match's runs (null on a miss). */
function spanOf(m: QuoteMatch): Span | null {
  if (!m.matched || m.spans.length === 0) return null;
  if (m.spans.length === 1) return m.spans[0]!;
  return { start: Math.min(...m.spans.map((s) => s.start)), end: Math.max(...m.spans.map((s) => s.end)) };
}

/**
 * The rule of the strict matcher (METHODS §1.2: exact, no-space, then `gapped`) for a quote, given
 * the rule the `researchqa` matcher found: its exact and no-space rules are the strict ones, so
 * only a quote they did not accept is matched again (`matchQuoteModes` does both at once). A quote
 * accepted only by a prefix rule may be rejected (text after the verbatim prefix may be wrong), and
 * one the researchqa rules reject may be accepted by `gapped` (a page header or a citation marker
 * inside the quoted sentence).
 */
export function strictRule(paper: PreparedPaper, quote: string, rule: MatchRule): MatchRule {
  if (rule === 'exact' || rule === 'no-space') return rule;
  return matchQuote(paper, quote, { mode: 'strict', nearest: false }).rule;
}
