import type { Span } from '../core/index.js';
import { type MatchMode, type MatchRule, matchQuote, type PreparedPaper } from '../text/index.js';
import type { PaperQuotes, QuoteCheck } from './citation-metrics.js';

/**
 * The quote matcher over one prepared paper, with memoised results (a run repeats quotes and
 * every alternative is located once per paper, not once per row). `check` also runs the strict
 * matcher, for `citation_accuracy_strict`, unless the grader's mode is already strict.
 */
export function paperQuotes(paper: PreparedPaper, mode: MatchMode): PaperQuotes {
  const located = new Map<string, { span: Span | null; rule: MatchRule }>();
  const strictRules = new Map<string, MatchRule>();
  const find = (text: string) => {
    let found = located.get(text);
    if (found === undefined) {
      const m = matchQuote(paper, text, { mode, nearest: false });
      let span: Span | null = null;
      if (m.matched && m.spans.length === 1) span = m.spans[0]!;
      else if (m.matched && m.spans.length > 1) {
        span = {
          start: Math.min(...m.spans.map((s) => s.start)),
          end: Math.max(...m.spans.map((s) => s.end)),
        };
      }
      found = { span, rule: m.rule };
      located.set(text, found);
    }
    return found;
  };
  const strictRule = (quote: string, rule: MatchRule): MatchRule => {
    if (mode === 'strict') return rule;
    // Strict accepts (a) and (c) of the researchqa rules, tried in the same order.
    if (rule === 'exact' || rule === 'no-space') return rule;
    let out = strictRules.get(quote);
    if (out === undefined) {
      out = matchQuote(paper, quote, { mode: 'strict', nearest: false }).rule;
      strictRules.set(quote, out);
    }
    return out;
  };
  return {
    check: (quote): QuoteCheck => {
      const { rule } = find(quote);
      return { rule, strictRule: strictRule(quote, rule) };
    },
    locate: (text) => find(text).span,
  };
}
