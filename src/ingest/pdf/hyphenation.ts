/**
 * Line-end hyphenation, decided with the document's own vocabulary. A line that ends in
 * "word-" followed by a line starting "rest" is either a word broken by the typesetter
 * ("Sci-" + "ence" → "Science") or a real compound that happens to break at its hyphen
 * ("state-of-the-" + "art"). The decision, in order:
 * 1. the joined word occurs elsewhere in the document → join;
 * 2. the hyphenated form occurs elsewhere in the document → keep the hyphen;
 * 3. the second part starts with a capital or a digit ("non-" + "English", "GPT-" + "4") → keep;
 * 4. the second part goes on with a hyphen of its own ("state-" + "of-the-art", "end-" + "to-end"):
 *    a compound broken at one of its hyphens → keep;
 * 5. both parts are words of the document of 3+ letters ("data-" + "driven") → keep;
 * 6. otherwise → join (most breaks are syllable breaks: "dehypenisa-" + "tion").
 */
export class Vocabulary {
  private readonly words = new Map<string, number>();

  /** Counts the words of `text`, both whole hyphenated forms and their parts. */
  add(text: string): void {
    for (const m of text.matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu)) {
      const token = (/^[\x00-\x7f]*$/.test(m[0]) ? m[0] : m[0].normalize('NFKC')).toLowerCase();
      this.bump(token);
      if (token.includes('-')) for (const part of token.split('-')) this.bump(part);
    }
  }

  /**
   * Counts the words of consecutive lines, leaving out the fragments of line-end hyphen breaks
   * (the word before a final hyphen and the first word of the line after it), which are not words.
   */
  addLines(lines: readonly string[]): void {
    let brokeBefore = false;
    for (const line of lines) {
      let text = line.trim();
      if (brokeBefore) text = text.replace(/^[\p{L}\p{N}]+/u, '');
      brokeBefore = /[\p{L}\p{N}]-$/u.test(text);
      if (brokeBefore) text = text.replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*-$/u, '');
      this.add(text);
    }
  }

  has(word: string): boolean {
    return (this.words.get(word.normalize('NFKC').toLowerCase()) ?? 0) > 0;
  }

  private bump(w: string): void {
    this.words.set(w, (this.words.get(w) ?? 0) + 1);
  }
}

/**
 * The end of `text` that can hold its last word: the regexes below are anchored at the end, but V8
 * still tries every start position, so on a paragraph that grows line by line they must see a
 * bounded tail (else joining n lines costs n²). A tail that is one long word falls back to the whole.
 */
function lastWordTail(text: string): string {
  if (text.length <= TAIL) return text;
  const tail = text.slice(-TAIL);
  return /^[\p{L}\p{N}-]+$/u.test(tail) ? text : tail;
}
const TAIL = 256;

/** The word fragment at the end of `line` before its hyphen, and at the start of `next`. */
function fragments(line: string, next: string): { head: string; tail: string } | null {
  const h = /([\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*)-$/u.exec(lastWordTail(line));
  const t = /^([\p{L}\p{N}]+)/u.exec(next);
  if (!h || !t) return null;
  return { head: h[1]!, tail: t[1]! };
}

/** Whether the hyphen that ends `line` (before `next`) is a break to remove. */
export function shouldJoinHyphen(line: string, next: string, vocab: Vocabulary): boolean {
  const f = fragments(line, next);
  if (!f) return false;
  const lastPart = f.head.split('-').at(-1)!;
  if (!/\p{L}$/u.test(lastPart)) return false;
  if (vocab.has(`${lastPart}${f.tail}`) || vocab.has(`${f.head}${f.tail}`)) return true;
  if (vocab.has(`${f.head}-${f.tail}`) || vocab.has(`${lastPart}-${f.tail}`)) return false;
  if (/^[\p{Lu}\p{N}]/u.test(f.tail)) return false;
  if (/^[\p{L}\p{N}]+-[\p{L}\p{N}]/u.test(next)) return false;
  if (lastPart.length >= 3 && f.tail.length >= 3 && vocab.has(lastPart) && vocab.has(f.tail)) return false;
  return true;
}

/**
 * Joins text lines into one paragraph: a line ending in a hyphen is joined to the next without
 * the hyphen when `shouldJoinHyphen` says so, with the hyphen and no space when it is a compound,
 * and other lines are joined with one space.
 */
export function joinLines(lines: readonly string[], vocab: Vocabulary): string {
  // The output is kept as finished parts plus the open end (`last`): the hyphen rules only look at
  // the last word, and slicing one ever-growing string would copy it at every line (n² on a
  // paragraph of thousands of broken lines). `last` is flushed up to its last space when it grows.
  const parts: string[] = [];
  let last = '';
  for (const line of lines) {
    const text = line.trim();
    if (!text) continue;
    if (!last) {
      last = text;
    } else if (/[\p{L}\p{N}]-$/u.test(last)) {
      last = shouldJoinHyphen(last, text, vocab) ? last.slice(0, -1) + text : last + text;
    } else {
      last += ` ${text}`;
    }
    if (last.length > FLUSH) {
      const cut = last.lastIndexOf(' ');
      if (cut > 0) {
        parts.push(last.slice(0, cut));
        last = last.slice(cut);
      }
    }
  }
  parts.push(last);
  return parts.join('');
}
const FLUSH = 4096;
