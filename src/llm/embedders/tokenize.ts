import { stemmer } from 'stemmer';

/** English function words that carry no topic (kept short: domain words stay). */
const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves also may might must shall us via per et al e g i e'
  ).split(' '),
);

/**
 * The term of each word already seen (null: left out), so a repeated word costs one lookup
 * instead of a stop-word check, a number test and a stem (stemming alone was a third of
 * tokenising; a corpus repeats its words).
 */
const TERMS = new Map<string, string | null>();
const MAX_CACHED_TERMS = 200_000;
/** Words longer than this (in UTF-16 units) are left out: no term is that long; a run this long is an identifier or an encoding. */
export const MAX_WORD_UNITS = 40;
const NUMBER = /^\p{N}+$/u;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The term of one word of folded text (`foldText`), or null when it is left out: a stop word, a
 * single character, a run over 40 units. Numbers are kept as they are; other words are stemmed.
 */
export function termOf(word: string): string | null {
  let t = TERMS.get(word);
  if (t === undefined) {
    t =
      word.length < 2 || STOP.has(word) || word.length > MAX_WORD_UNITS
        ? null
        : NUMBER.test(word)
          ? word
          : stemmer(word);
    if (TERMS.size < MAX_CACHED_TERMS) TERMS.set(word, t);
  }
  return t;
}

/**
 * Words for the embedded embedders: NFKC, lowercase, letter/digit runs, stop words removed,
 * Porter-stemmed. Numbers are kept (a year or a score can be what a question asks about).
 */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of foldText(text).match(WORD) ?? []) {
    const t = termOf(word);
    if (t !== null) out.push(t);
  }
  return out;
}

/**
 * A text as its words are read from: NFKC, then lower case. NFKC is skipped for an ASCII-only
 * text, where it changes nothing (the UTF-8 length equals the UTF-16 length only then), since
 * most passages are ASCII and normalising costs a copy of each.
 */
export function foldText(text: string): string {
  return (Buffer.byteLength(text, 'utf8') === text.length ? text : text.normalize('NFKC')).toLowerCase();
}

/** FNV-1a 32-bit hash of a string (feature hashing, fingerprints). */
export function fnv1a(text: string, seed = 2166136261): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** L2-normalises in place; a zero vector stays zero. Returns the vector. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  }
  return v;
}
