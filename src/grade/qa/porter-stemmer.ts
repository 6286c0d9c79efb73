/**
 * NLTK's `PorterStemmer()` in its default mode (`NLTK_EXTENSIONS`), the stemmer `rouge-score` uses
 * (rouge_score/tokenizers.py: `porter.PorterStemmer() if use_stemmer else None`). A line-by-line
 * port of nltk/stem/porter.py (NLTK 3.8; `stem()` is unchanged through 3.9): the irregular-forms
 * pool, the 2-letter cut-off, and the NLTK departures from Porter (1980) — `ies`/`ied` on 4-letter
 * words, y→i only after a consonant, `alli` tried first in step 2, `fulli` and `logi` rules, the
 * 2-letter *o condition. The `stemmer` npm package implements Porter's original algorithm, which
 * stems some words differently (e.g. "dying", "generously", "flies"), so it cannot stand in here.
 *
 * Words are expected in lower case (rouge-score lower-cases before stemming); like NLTK with
 * `to_lowercase=True`, the input is lower-cased, but the pool and length checks see the input as
 * given, as NLTK's do (`word in self.pool`, `len(word) <= 2`).
 */

const IRREGULAR: Record<string, string> = {
  sky: 'sky',
  skies: 'sky',
  dying: 'die',
  lying: 'lie',
  tying: 'tie',
  news: 'news',
  innings: 'inning',
  inning: 'inning',
  outings: 'outing',
  outing: 'outing',
  cannings: 'canning',
  canning: 'canning',
  howe: 'howe',
  proceed: 'proceed',
  exceed: 'exceed',
  succeed: 'succeed',
};

type Condition = ((stem: string) => boolean) | null;
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

function isVowelLetter(c: string): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';
}

function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if (isVowelLetter(c)) return false;
  if (c === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m: the number of "vc" transitions in the word's consonant/vowel pattern. */
function measure(stem: string): number {
  let m = 0;
  let previousVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const consonant = isConsonant(stem, i);
    if (consonant && previousVowel) m++;
    previousVowel = !consonant;
  }
  return m;
}

const positiveMeasure = (stem: string) => measure(stem) > 0;
const measureAbove1 = (stem: string) => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);
}

/** *o: ends consonant–vowel–consonant, the last not w, x or y; NLTK also accepts a 2-letter "vc". */
function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !['w', 'x', 'y'].includes(word[n - 1]!)) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

/** NLTK `_apply_rule_list`: the first rule whose suffix matches decides (condition false → no change). */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === '' ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i');
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let intermediate: string | null = null;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      if (containsVowel(stem)) {
        intermediate = stem;
        break;
      }
    }
  }
  if (intermediate === null) return word;
  const last = intermediate.at(-1) ?? '';
  return applyRules(intermediate, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith('alli') && positiveMeasure(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ['ational', 'ate', positiveMeasure],
    ['tional', 'tion', positiveMeasure],
    ['enci', 'ence', positiveMeasure],
    ['anci', 'ance', positiveMeasure],
    ['izer', 'ize', positiveMeasure],
    ['bli', 'ble', positiveMeasure],
    ['alli', 'al', positiveMeasure],
    ['entli', 'ent', positiveMeasure],
    ['eli', 'e', positiveMeasure],
    ['ousli', 'ous', positiveMeasure],
    ['ization', 'ize', positiveMeasure],
    ['ation', 'ate', positiveMeasure],
    ['ator', 'ate', positiveMeasure],
    ['alism', 'al', positiveMeasure],
    ['iveness', 'ive', positiveMeasure],
    ['fulness', 'ful', positiveMeasure],
    ['ousness', 'ous', positiveMeasure],
    ['aliti', 'al', positiveMeasure],
    ['iviti', 'ive', positiveMeasure],
    ['biliti', 'ble', positiveMeasure],
    ['fulli', 'ful', positiveMeasure],
    // NLTK keeps the 'l' of 'logi' with the stem: the condition is on word[:-3], not the stem.
    ['logi', 'log', () => positiveMeasure(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positiveMeasure],
    ['ative', '', positiveMeasure],
    ['alize', 'al', positiveMeasure],
    ['iciti', 'ic', positiveMeasure],
    ['ical', 'ic', positiveMeasure],
    ['ful', '', positiveMeasure],
    ['ness', '', positiveMeasure],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ['al', '', measureAbove1],
    ['ance', '', measureAbove1],
    ['ence', '', measureAbove1],
    ['er', '', measureAbove1],
    ['ic', '', measureAbove1],
    ['able', '', measureAbove1],
    ['ible', '', measureAbove1],
    ['ant', '', measureAbove1],
    ['ement', '', measureAbove1],
    ['ment', '', measureAbove1],
    ['ent', '', measureAbove1],
    ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
    ['ou', '', measureAbove1],
    ['ism', '', measureAbove1],
    ['ate', '', measureAbove1],
    ['iti', '', measureAbove1],
    ['ous', '', measureAbove1],
    ['ive', '', measureAbove1],
    ['ize', '', measureAbove1],
  ]);
}

function step5a(word: string): string {
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/** NLTK `PorterStemmer().stem(word)` (mode NLTK_EXTENSIONS). */
export function porterStem(word: string): string {
  // NLTK: `if word in self.pool: return self.pool[stem]`; the pool's keys are lower case, so a word
  // found there is already lower case.
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word]!;
  const lower = word.toLowerCase();
  if (word.length <= 2) return lower;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(lower))))))));
}
