import { WordScanner, WordTable } from '../../text/index.js';
import { foldText, MAX_WORD_UNITS, termOf } from './tokenize.js';

/**
 * Distinct words remembered at most (about 30 MB of table, 60 MB if every word had 40 units); a
 * word first seen after the table is full is sliced and looked up as a string each time, as
 * `contentTerms` does.
 */
const MAX_WORDS = 1 << 19;

/** What the table remembers for a word whose term is left out (a stop word, a single letter). */
const LEFT_OUT = -0x80000000;

/**
 * The terms of texts as `contentTerms` finds them (same words, same order), each as the number
 * `codeOf(term)` gives it, read in place: a word already seen costs a `WordTable` probe over its
 * characters, with no string, no `Map` lookup and no stemming (those were most of the LSA
 * embedder's time on a large corpus). `codeOf` must give a term the same number every time it is
 * asked (a word past `MAX_WORDS` asks again) and is asked in order of the words' first occurrence.
 */
export class WordCodes {
  private readonly table = new WordTable();
  private readonly scanner = new WordScanner();
  /** The numbers of the last text's terms: `out[0, n)` for the `n` that `codes` returned. */
  out = new Int32Array(1024);

  constructor(
    private readonly codeOf: (term: string) => number,
    private readonly maxWords = MAX_WORDS,
  ) {}

  /** Reads `text` and returns how many terms it has (their numbers are in `out`). */
  codes(text: string): number {
    const words = this.scanner;
    const table = this.table;
    words.reset(foldText(text));
    let out = this.out;
    let n = 0;
    while (words.next()) {
      // Left out by `termOf`, and not remembered: a long run would fill the table's characters.
      if (words.end - words.start > MAX_WORD_UNITS) continue;
      let code = table.get(words.text, words.start, words.end, words.hash);
      if (code === undefined) {
        const term = termOf(words.text.slice(words.start, words.end));
        code = term === null ? LEFT_OUT : this.codeOf(term);
        if (table.size < this.maxWords) table.set(words.text, words.start, words.end, words.hash, code);
      }
      if (code === LEFT_OUT) continue;
      if (n === out.length) {
        const grown = new Int32Array(2 * n);
        grown.set(out);
        out = grown;
        this.out = out;
      }
      out[n++] = code;
    }
    return n;
  }
}
