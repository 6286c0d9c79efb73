import { stemmer } from 'stemmer';

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

const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-cases, splits into letter/digit runs, drops stop words and stems (as configured). */
export function createAnalyzer(config: AnalyzerConfig): (text: string) => string[] {
  const cache = new Map<string, string>();
  return (text: string) => {
    const out: string[] = [];
    for (const m of text.toLowerCase().matchAll(TOKEN)) {
      const word = m[0];
      if (config.stopwords && STOPWORDS.has(word)) continue;
      if (!config.stem) {
        out.push(word);
        continue;
      }
      let s = cache.get(word);
      if (s === undefined) {
        s = stemmer(word);
        if (cache.size < 200_000) cache.set(word, s);
      }
      out.push(s);
    }
    return out;
  };
}
