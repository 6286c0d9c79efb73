/**
 * A rule-based sentence splitter for scientific prose. A boundary is placed
 *
 * - at every blank line (paragraph break; also ends Markdown headings), and
 * - after a terminator run — `.`, `!`, `?`, `…` or `...`, then any closing quotes or brackets, then
 *   a citation that hugs it (`.[12]`, `.(Smith et al., 2019)`) — that is followed by whitespace, when
 *   the text after it starts like a sentence: an uppercase letter, a digit, an opening quote or
 *   bracket, or, after a plain word of 4+ letters or a number, a lowercase letter ("mRNA", "p53").
 *
 * Never a boundary: a period inside a token (3.5, 0.05, mg/kg, e.g., U.S.), a known abbreviation
 * (e.g., i.e., cf., vs., Fig., Figs., Eq., Tab., Sec., No., approx., …), a single-letter initial
 * (J. Smith), a period followed by `,` `;` `:` or `)`. "et al." ends a sentence only before a common
 * sentence opener ("et al. We …"); "etc." and dotted acronyms end one only before an uppercase word.
 */

/** A sentence and its `[start, end)` span in the text (whitespace around it excluded). */
export interface Sentence {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const NEVER_END = new Set(
  [
    'e.g',
    'i.e',
    'cf',
    'vs',
    'viz',
    'fig',
    'figs',
    'eq',
    'eqs',
    'tab',
    'tabs',
    'sec',
    'secs',
    'sect',
    'no',
    'nos',
    'approx',
    'ca',
    'resp',
    'incl',
    'dr',
    'mr',
    'mrs',
    'ms',
    'prof',
    'st',
    'vol',
    'vols',
    'pp',
    'ch',
    'chap',
    'ref',
    'refs',
    'ed',
    'eds',
    'suppl',
    'ibid',
    'ex',
    'def',
    'thm',
    'lem',
    'prop',
    'cor',
    'alg',
    'appx',
    'app',
  ].map((w) => w.toLowerCase()),
);

const SENTENCE_OPENERS = new Set(
  (
    'the a an we this these that those our it its in on for to however moreover furthermore thus here ' +
    'they their such although while when as one another finally first second third similarly ' +
    'unlike both all most some there since because table figure results'
  ).split(' '),
);

const CLOSERS = new Set(['"', "'", ')', ']', '}', '\u201d', '\u2019', '\u00bb']);

/** The word just before index `end` (the run of non-space characters), without leading brackets. */
function wordBefore(text: string, end: number): string {
  let s = end;
  while (s > 0 && !/\s/.test(text[s - 1]!)) s--;
  return text.slice(s, end).replace(/^[("'[\u201c\u2018]+/, '');
}

/** End of a citation hugging position `i` (`[12]`, `(Smith et al., 2019)`), or `i` if none. */
const CITATION = /\[[\d,;\s\u2013-]{1,40}\]|\([^()]{0,80}\b(?:1[5-9]|20)\d\d[a-z]?\)/y;
const BLANK_LINE = /\n[^\S\n]*\n\s*/y;

function citationEnd(text: string, i: number): number {
  const c = text[i];
  if (c !== '[' && c !== '(') return i;
  CITATION.lastIndex = i;
  return CITATION.test(text) ? CITATION.lastIndex : i;
}

/** Index after the terminator run that starts at `i`, or -1 if `text[i]` is no terminator. */
function terminatorEnd(text: string, i: number): number {
  const c = text[i];
  if (c !== '.' && c !== '!' && c !== '?' && c !== '\u2026') return -1;
  let j = i + 1;
  while (j < text.length && (text[j] === '.' || text[j] === '!' || text[j] === '?' || text[j] === '\u2026'))
    j++;
  while (j < text.length && CLOSERS.has(text[j]!)) j++;
  return citationEnd(text, j);
}

/** Whether the terminator run `[i, end)` followed by whitespace and then `next` ends a sentence. */
function endsSentence(text: string, i: number, end: number, nextWord: string): boolean {
  const next = nextWord[0];
  if (next === undefined) return true;
  const upper = /^\p{Lu}/u.test(next);
  const opener = upper || /^[\d"'([\u201c\u2018]/u.test(next);
  const run = text.slice(i, end);
  if (run.startsWith('...') || run.startsWith('\u2026')) return upper;
  if (text[i] !== '.' || end > i + 1) {
    if (opener) return true;
    // "?"/"!" before a lowercase word ends a sentence only after a real word ("n! is" does not).
    return text[i] !== '.' && /^\p{Ll}/u.test(next) && /\p{L}{4,}$/u.test(wordBefore(text, i));
  }
  const word = wordBefore(text, i);
  const lower = word.toLowerCase();
  if (NEVER_END.has(lower)) return false;
  if (lower === 'al') return SENTENCE_OPENERS.has(nextWord.toLowerCase().replace(/[^\p{L}]/gu, ''));
  if (lower === 'etc' || /^(?:\p{L}\.)+\p{L}$/u.test(word)) return upper;
  if (/^\p{Lu}$/u.test(word)) return false; // an initial: "J. Smith"
  if (opener) return true;
  return /^\p{Ll}/u.test(next) && (/^\p{L}{4,}$/u.test(word) || /^\d+$/.test(word));
}

/** Splits `text` into sentences with their spans (see the module comment for the rules). */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  const emit = (from: number, to: number) => {
    let s = from;
    let e = to;
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e > s) sentences.push({ text: text.slice(s, e), start: s, end: e });
  };
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '\n') {
      BLANK_LINE.lastIndex = i;
      if (BLANK_LINE.test(text)) {
        emit(start, i);
        start = BLANK_LINE.lastIndex;
        i = start;
        continue;
      }
    }
    const end = terminatorEnd(text, i);
    if (end < 0) {
      i++;
      continue;
    }
    if (end < text.length && !/\s/.test(text[end]!)) {
      i = end;
      continue;
    }
    let k = end;
    while (k < text.length && /\s/.test(text[k]!)) k++;
    const nextWord = /^\S*/.exec(text.slice(k, k + 40))![0];
    if (endsSentence(text, i, end, nextWord)) {
      emit(start, end);
      start = end;
    }
    i = end;
  }
  emit(start, text.length);
  return sentences;
}
