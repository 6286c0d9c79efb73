import type { Span } from '../core/index.js';
import { type MatchMode, type MatchRule, matchQuote, type PreparedPaper } from '../text/index.js';
import type { PaperQuotes, QuoteCheck } from './citation-metrics.js';

/**
 * The quote matcher over one prepared paper, with memoised results (a run repeats quotes and
 * every alternative is located once per paper, not once per row). `check` also gives the rule of
 * each quote under the strict matcher, for `citation_accuracy_strict`.
 */
export function paperQuotes(paper: PreparedPaper, mode: MatchMode): PaperQuotes {
  const located = new Map<string, { span: Span | null; rule: MatchRule; strict?: MatchRule }>();
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
  return {
    check: (quote): QuoteCheck => {
      const found = find(quote);
      found.strict ??= mode === 'strict' ? found.rule : strictRule(paper, quote, found.rule);
      return { rule: found.rule, strictRule: found.strict };
    },
    locate: (text) => find(text).span,
  };
}

/**
 * The rule of the strict matcher (METHODS §1.2: exact, no-space, then `gapped`) for a quote, given
 * the rule the `researchqa` matcher found: its exact and no-space rules are the strict ones, so
 * only a quote they did not accept is matched again (a `prefix` match left the no-space rule
 * untried, and no researchqa rule is `gapped`). A quote accepted only by a prefix rule may be
 * rejected (text after the verbatim prefix may be wrong), and one the researchqa rules reject may
 * be accepted by `gapped` (a page header or a citation marker inside the quoted sentence).
 */
export function strictRule(paper: PreparedPaper, quote: string, rule: MatchRule): MatchRule {
  if (rule === 'exact' || rule === 'no-space') return rule;
  return matchQuote(paper, quote, { mode: 'strict', nearest: false }).rule;
}
