import type { Span } from '../core/index.js';
import { type MatchMode, matchQuote, type PreparedPaper } from '../text/index.js';
import type { PaperQuotes } from './citation-metrics.js';

/**
 * The quote matcher over one prepared paper, with memoised results (a run repeats quotes and
 * every alternative is located once per paper, not once per row).
 */
export function paperQuotes(paper: PreparedPaper, mode: MatchMode): PaperQuotes {
  const located = new Map<string, Span | null>();
  const locate = (text: string): Span | null => {
    let span = located.get(text);
    if (span === undefined) {
      const m = matchQuote(paper, text, { mode, nearest: false });
      span = null;
      if (m.matched && m.spans.length === 1) span = m.spans[0]!;
      else if (m.matched && m.spans.length > 1) {
        span = {
          start: Math.min(...m.spans.map((s) => s.start)),
          end: Math.max(...m.spans.map((s) => s.end)),
        };
      }
      located.set(text, span);
    }
    return span;
  };
  return { passes: (quote) => locate(quote) !== null, locate };
}
