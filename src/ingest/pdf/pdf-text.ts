import type { PdfItem } from './pdf-engine.js';

export const isBlank = (s: string) => s.trim() === '';

/**
 * Spacing accents as TeX and some other typesetters print them: a separate glyph drawn over the
 * letter that follows it ("Erd˝os", "F´ısica", "Lemaˆıtre"), mapped to the combining mark that
 * replaces it.
 */
const SPACING_ACCENTS: Record<string, string> = {
  '\u00b4': '\u0301', // ´ acute
  '\u02dd': '\u030b', // ˝ double acute
  '\u02c6': '\u0302', // ˆ circumflex
  '\u02dc': '\u0303', // ˜ tilde
  '\u00a8': '\u0308', // ¨ diaeresis
  '\u00b8': '\u0327', // ¸ cedilla
  '\u02c7': '\u030c', // ˇ caron
  '\u02d8': '\u0306', // ˘ breve
  '\u00af': '\u0304', // ¯ macron
  '\u02d9': '\u0307', // ˙ dot above
  '\u02da': '\u030a', // ˚ ring above
  '\u02db': '\u0328', // ˛ ogonek
  '\u0060': '\u0300', // ` grave (only inside a word, see below)
};
const ACCENT_CLASS = '[\u00b4\u02dd\u02c6\u02dc\u00a8\u00b8\u02c7\u02d8\u00af\u02d9\u02da\u02db\u0060]';
/** Dotless i and j take the accent in place of their dot. */
const UNDOTTED: Record<string, string> = { ı: 'i', ȷ: 'j' };

/** `letter + mark` as one precomposed character, or null when Unicode has none (t + ´). */
function compose(letter: string, mark: string): string | null {
  const base = UNDOTTED[letter] ?? letter;
  const out = (base + mark).normalize('NFC');
  return [...out].length === 1 ? out : null;
}

/**
 * Combines spacing accents with their letter: with the letter that follows ("Erd˝os" → "Erdős",
 * TeX's order), else with the letter before it ("Wa¨ckers" → "Wäckers", "e´ " → "é "). An accent
 * is left alone when Unicode has no such letter, an acute between two letters that takes neither is
 * an apostrophe ("don´t" stays) and a grave accent only combines inside a word (a backtick in code
 * stays).
 */
export function combineAccents(text: string): string {
  if (!/[\u00b4\u02dd\u02c6\u02dc\u00a8\u00b8\u02c7\u02d8\u00af\u02d9\u02da\u02db`]/.test(text)) return text;
  const re = new RegExp(`(\\p{L})?(${ACCENT_CLASS})(\\p{L})?`, 'gu');
  return text.replace(re, (whole, before: string | undefined, accent: string, after: string | undefined) => {
    const mark = SPACING_ACCENTS[accent]!;
    if (accent === '`' && !(before && after)) return whole;
    if (after) {
      const c = compose(after, mark);
      if (c) return `${before ?? ''}${c}`;
      // An acute between letters that fits neither way is an apostrophe ("don´t"), not an accent.
      if (accent === '\u00b4' || !before) return whole;
    }
    if (before) {
      const c = compose(before, mark);
      if (c) return whole.replace(`${before}${accent}`, c);
    }
    return whole;
  });
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Raised digits (footnote markers) are written as superscript characters, as they look. */
export function toSuperscript(text: string): string {
  return text.replace(/\d/g, (d) => SUPERSCRIPT_DIGITS[Number(d)]!);
}

/**
 * Joins a row's items into text, adding a space where the gap between items is word-sized, and
 * between letters or digits on different baselines (a subscript or exponent: "T ν", "10 −22"), as
 * S2ORC and GROBID write them; raised footnote digits are superscript characters and stay attached.
 */
export function joinItems(items: readonly PdfItem[]): string {
  let text = '';
  let prevEnd = Number.NaN;
  let prev: PdfItem | undefined;
  for (const it of items) {
    const size = it.size || 10;
    if (text && !text.endsWith(' ') && !it.str.startsWith(' ')) {
      const gap = it.x - prevEnd > 0.15 * size;
      const shifted =
        prev !== undefined &&
        Math.abs(it.y - prev.y) > 0.2 * Math.min(size, prev.size || 10) &&
        /[\p{L}\p{N}]$/u.test(text) &&
        /^[\p{L}\p{N}]/u.test(it.str) &&
        !/^[⁰¹²³⁴⁵⁶⁷⁸⁹]/.test(it.str);
      if (gap || shifted) text += ' ';
    }
    text += it.str;
    if (!isBlank(it.str) || it.width > 0) {
      prevEnd = Math.max(Number.isNaN(prevEnd) ? 0 : prevEnd, it.x + it.width);
      prev = it;
    }
  }
  return combineAccents(cleanText(text));
}

/** Control characters dropped, white space runs as one space, TeX double quotes as double quotes. */
function cleanText(text: string): string {
  let out = text;
  if (/[\u0000-\u001f\u007f]/.test(out)) out = out.replace(/[\u0000-\u001f\u007f]/g, '');
  if (/\s\s|[^\S ]/.test(out)) out = out.replace(/\s+/g, ' ');
  // Two single quotes are how many TeX fonts print a double quote: write the double quote.
  if (out.includes('\u2018\u2018')) out = out.replace(/\u2018\u2018/g, '\u201c');
  if (out.includes('\u2019\u2019')) out = out.replace(/\u2019\u2019/g, '\u201d');
  return out.trim();
}
