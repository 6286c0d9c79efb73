import type { Span } from '../core/index.js';
import {
  type MatchMode,
  type MatchRule,
  matchQuote,
  normalizeQuote,
  noSpaceString,
  type PreparedPaper,
} from '../text/index.js';
import type { PaperQuotes, QuoteCheck } from './citation-metrics.js';

/**
 * The quote matcher over one prepared paper, with memoised results (a run repeats quotes and
 * every alternative is located once per paper, not once per row). `check` also gives the strict
 * rule of each quote, for `citation_accuracy_strict`.
 */
export function paperQuotes(paper: PreparedPaper, mode: MatchMode): PaperQuotes {
  const located = new Map<string, { span: Span | null; rule: MatchRule }>();
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
      const { rule } = find(quote);
      return { rule, strictRule: strictRule(paper, quote, rule) };
    },
    locate: (text) => find(text).span,
  };
}

/**
 * The strict rule that accepts a quote, given the rule the grader's mode found: (a) exact or (c)
 * no-space of METHODS §1.2, the published rule without its prefix rules (so strict accuracy never
 * exceeds the published one, and the difference is exactly the prefix-only quotes); else `none`.
 * The researchqa order is exact, prefix, no-space, no-space-prefix: only a `prefix` match leaves
 * the no-space rule untried.
 */
export function strictRule(paper: PreparedPaper, quote: string, rule: MatchRule): MatchRule {
  if (rule === 'exact' || rule === 'no-space') return rule;
  if (rule !== 'prefix') return 'none';
  const noSpace = noSpaceString(normalizeQuote(quote).text);
  return noSpace.length >= 20 && paper.noSpaceIndex.indexOf(noSpace) >= 0 ? 'no-space' : 'none';
}
