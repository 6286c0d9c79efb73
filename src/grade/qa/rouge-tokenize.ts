import { porterStem } from './porter-stemmer.js';

/**
 * rouge-score's DefaultTokenizer (rouge_score/tokenize.py, `tokenize(text, stemmer)`): lower-case,
 * every run of characters other than a–z and 0–9 becomes a space, split on whitespace, Porter-stem
 * (NLTK's, see porter-stemmer.ts) the tokens longer than 3 characters, then drop empty tokens.
 * Non-ASCII letters are separators, as in the package (so "naïve" gives "na", "ve").
 */
export function rougeTokenize(text: string, stem: (word: string) => string = identity): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const out: string[] = [];
  for (const word of words) {
    const token = word.length > 3 ? stem(word) : word;
    // rouge-score's final check (VALID_TOKEN_RE) runs after stemming.
    if (/^[a-z0-9]+$/.test(token)) out.push(token);
  }
  return out;
}

const identity = (word: string) => word;

/** A Porter stemmer with a per-instance cache (a corpus repeats its words; stemming dominates). */
export function cachedPorterStemmer(): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let stem = cache.get(word);
    if (stem === undefined) {
      stem = porterStem(word);
      if (cache.size < 500_000) cache.set(word, stem);
    }
    return stem;
  };
}
