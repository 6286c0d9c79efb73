import { stemmer } from 'stemmer';
import { WordScanner } from '../../text/index.js';

/** How text becomes index terms; recorded in a persisted index and reused for queries. */
export interface AnalyzerConfig {
  /** Porter stemming of English words (the `stemmer` package). */
  stem: boolean;
  /** Drop common English function words. */
  stopwords: boolean;
}

export const DEFAULT_ANALYZER: AnalyzerConfig = { stem: true, stopwords: true };

/** A short English stop-word list (function words only, so "not"/"no" stay out of it). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just me more most my myself of off on once only or ' +
    'other our ours ourselves out over own same she should so some such than that the their theirs them themselves ' +
    'then there these they this those through to too under until up very was we were what when where which while who ' +
    'whom why will with would you your yours yourself yourselves'
  ).split(' '),
);

/** The index term of one (lower-cased) word, or null for a stop word; cached per word. */
export function createWordAnalyzer(config: AnalyzerConfig): (word: string) => string | null {
  const cache = new Map<string, string | null>();
  return (word: string) => {
    let s = cache.get(word);
    if (s === undefined) {
      s = config.stopwords && STOPWORDS.has(word) ? null : config.stem ? stemmer(word) : word;
      if (cache.size < 200_000) cache.set(word, s);
    }
    return s;
  };
}

/** Lower-cases, splits into letter/digit runs (`WordScanner`), drops stop words and stems (as configured). */
export function createAnalyzer(config: AnalyzerConfig): (text: string) => string[] {
  const term = createWordAnalyzer(config);
  return (text: string) => {
    const out: string[] = [];
    const words = new WordScanner();
    words.reset(text.toLowerCase());
    while (words.next()) {
      const t = term(words.text.slice(words.start, words.end));
      if (t !== null) out.push(t);
    }
    return out;
  };
}
