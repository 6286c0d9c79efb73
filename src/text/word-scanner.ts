import { withRoom } from './grow-array.js';

/** One code point that is a letter or a number (what the analyzer's words are runs of). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Per UTF-16 unit below 0x10000: 0 not yet classified, 1 a word character, 2 not. */
const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL_CLASS = new Map<number, boolean>();

function isWordBmp(c: number): boolean {
  let k = BMP_CLASS[c] as number;
  if (k === 0) {
    // A lone surrogate is no letter or number (the regex's `u` flag reads it as one code point).
    k = c >= 0xd800 && c <= 0xdfff ? 2 : WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    BMP_CLASS[c] = k;
  }
  return k === 1;
}

function isWordAstral(cp: number): boolean {
  let k = ASTRAL_CLASS.get(cp);
  if (k === undefined) {
    k = WORD_CHAR.test(String.fromCodePoint(cp));
    ASTRAL_CLASS.set(cp, k);
  }
  return k;
}

/** Units of the code point at `i` that is a word character (1 or 2), or 0 when it is not one. */
function wordUnits(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80)
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) ? 1 : 0;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff)
      return isWordAstral((c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000) ? 2 : 0;
  }
  return isWordBmp(c) ? 1 : 0;
}

/**
 * The words of a text as the analyzer splits it: maximal runs of letters and numbers (the code
 * points `/[\p{L}\p{N}]+/u` matches), read in place: `next()` moves to the next run and sets its
 * `[start, end)` in the text and an FNV-1a hash of its UTF-16 units, so a word can be looked up
 * (`WordTable`) without a string being made for it. One scanner serves queries and the index build.
 */
export class WordScanner {
  text = '';
  start = 0;
  end = 0;
  hash = 0;
  private pos = 0;

  /** Starts on `text` (the analyzer passes it lower-cased). */
  reset(text: string): void {
    this.text = text;
    this.pos = 0;
  }

  next(): boolean {
    const s = this.text;
    const n = s.length;
    let i = this.pos;
    let units = 0;
    while (i < n) {
      units = wordUnits(s, i);
      if (units > 0) break;
      i++;
    }
    if (i >= n) {
      this.pos = n;
      return false;
    }
    this.start = i;
    let h = 2166136261;
    do {
      h = Math.imul(h ^ s.charCodeAt(i), 16777619);
      if (units === 2) h = Math.imul(h ^ s.charCodeAt(i + 1), 16777619);
      i += units;
      units = i < n ? wordUnits(s, i) : 0;
    } while (units > 0);
    this.end = i;
    this.hash = h | 0;
    this.pos = i;
    return true;
  }
}

/**
 * Words (ranges of a string, with `WordScanner`'s hash) → an integer, in an open-addressed table
 * of typed arrays: a lookup compares characters in place, so the words of a text that are
 * already known cost no string and no `Map` probe (that probe with a new string per token was
 * the largest cost of an index build).
 */
export class WordTable {
  /** Pairs [hash, entry + 1] (0: empty), so a probe reads one place until the hash matches. */
  private slots = new Int32Array(2 << 16);
  private starts = new Int32Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private values = new Int32Array(1 << 12);
  private chars = new Uint16Array(1 << 16);
  private used = 0;
  size = 0;

  /** The value of word `s[start, end)` (hash `hash`), or undefined. */
  get(s: string, start: number, end: number, hash: number): number | undefined {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const len = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const e = (slots[2 * at + 1] as number) - 1;
      if (e < 0) return undefined;
      if (slots[2 * at] !== hash || this.lengths[e] !== len) continue;
      const o = this.starts[e] as number;
      let k = 0;
      while (k < len && this.chars[o + k] === s.charCodeAt(start + k)) k++;
      if (k === len) return this.values[e];
    }
  }

  /** Adds word `s[start, end)` (absent: check with `get` first) with `value`. */
  set(s: string, start: number, end: number, hash: number, value: number): void {
    const e = this.size++;
    if (e >= this.values.length) {
      this.starts = withRoom(this.starts, e + 1);
      this.lengths = withRoom(this.lengths, e + 1);
      this.values = withRoom(this.values, e + 1);
    }
    const len = end - start;
    this.chars = withRoom(this.chars, this.used + len);
    for (let k = 0; k < len; k++) this.chars[this.used + k] = s.charCodeAt(start + k);
    this.starts[e] = this.used;
    this.lengths[e] = len;
    this.values[e] = value;
    this.used += len;
    // At most half full: grown before the entry is placed, which re-places every other one.
    if (4 * this.size > this.slots.length) {
      const old = this.slots;
      this.slots = new Int32Array(old.length * 2);
      for (let at = 0; at < old.length; at += 2) {
        if (old[at + 1] !== 0) this.place(old[at] as number, (old[at + 1] as number) - 1);
      }
    }
    this.place(hash, e);
  }

  private place(hash: number, e: number): void {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let at = hash & mask;
    while (slots[2 * at + 1] !== 0) at = (at + 1) & mask;
    slots[2 * at] = hash;
    slots[2 * at + 1] = e + 1;
  }
}
