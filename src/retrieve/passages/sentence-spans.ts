/**
 * Sentence spans of a text: a boundary after `.`, `!` or `?` (optionally followed by closing quotes
 * or brackets) when whitespace and an upper-case letter, digit or opening bracket follow. A small
 * stand-in with the same shape as the text stage's sentence splitter; common abbreviations
 * ("e.g.", "et al.", "Fig.") do not end a sentence.
 */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'al',
  'fig',
  'figs',
  'eq',
  'eqs',
  'cf',
  'vs',
  'etc',
  'sec',
  'tab',
  'no',
  'dr',
  'mr',
  'ms',
  'approx',
  'resp',
]);

export function sentenceSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const boundary = /[.!?]["')\]]*(?=\s+["'([]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const m of text.matchAll(boundary)) {
    const end = (m.index ?? 0) + m[0].length;
    const word = /([\p{L}.]+)\.$/u.exec(text.slice(Math.max(start, end - 12), end))?.[1]?.toLowerCase();
    if (word && ABBREVIATIONS.has(word)) continue;
    pushTrimmed(text, start, end, spans);
    start = end;
  }
  pushTrimmed(text, start, text.length, spans);
  return spans;
}

function pushTrimmed(text: string, start: number, end: number, out: { start: number; end: number }[]): void {
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  if (end > start) out.push({ start, end });
}
