/**
 * Gold quotes from an S2ORC parse and their measurement against an extracted Document.
 *
 * Gold sentences: the abstract and `pdf_parse.body_text` paragraphs, split into sentences
 * (`splitGoldSentences`), keeping those of at least 40 characters. A sentence the gold parser
 * itself garbled is left out, for the first of these reasons that applies:
 * - `math`: two or more stray one-letter tokens (a letter other than "a", "A", "I" standing alone
 *   once surrounding brackets and punctuation are stripped: "p 1 ! p 2"), or a lone math symbol
 *   token (`! = + × ∈ ≤ ≥ ∼ | ^ ∑`) or a character from a private-use or math-symbol block;
 * - `url`: a URL or a bare domain (`http://`, `https://`, `www.`, `name.org|com|net|edu|io`);
 * - `table`: a row of table numbers (four or more consecutive numeric tokens, or numeric tokens
 *   making up at least 40% of at least 6 tokens);
 * - `caption`: the parser spliced a figure or table caption into the sentence
 *   ("… Xiong et al., Figure 1 : Part of the literature graph. 2017)"): "Figure N :" or
 *   "Table N :" after the sentence start.
 *
 * Swapped variant: the middle one of the adjacent pairs of distinct alphabetic words (2+ letters)
 * is exchanged; sentences without such a pair get no variant.
 *
 * Miss causes (first that applies): `hyphen` (found once hyphens are ignored on both sides),
 * `symbols` (found once everything but letters and digits is ignored), `interrupted` (its first
 * and second halves are found apart: a column break, footnote, float or header in between),
 * `other`.
 */
import type { Document } from '../src/core/index.js';
import { matchQuote, preparePaper } from '../src/text/index.js';

export type ExcludeReason = 'math' | 'url' | 'table' | 'caption';
export type MissCause = 'hyphen' | 'symbols' | 'interrupted' | 'other';

export interface PaperMeasurement {
  paper: string;
  candidates: number;
  excluded: Record<ExcludeReason, number>;
  sentences: number;
  located: number;
  swapped: number;
  falseAccepts: number;
  misses: Record<MissCause, number>;
  missed: { sentence: string; cause: MissCause; nearest: string }[];
}

const ABBREVIATIONS =
  /(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Figs|Eq|Eqs|Sec|Secs|Tab|No|Dr|Mr|Ms|approx|resp|incl|Inc|Ltd|Jr|St)\.|\b[A-Z]\.)$/;

/** Splits a paragraph after . ! ? followed by a space and a capital, digit or opening quote/bracket. */
export function splitGoldSentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]["'”’)\]]*\s+(?=["'“‘([]?[\p{Lu}\d])/gu;
  for (const m of paragraph.matchAll(re)) {
    const end = m.index + m[0].trimEnd().length;
    const candidate = paragraph.slice(start, end);
    if (ABBREVIATIONS.test(candidate)) continue;
    out.push(candidate.trim());
    start = m.index + m[0].length;
  }
  const rest = paragraph.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter((s) => s.length > 0);
}

const MATH_SYMBOLS = new Set(['!', '=', '+', '×', '∈', '≤', '≥', '∼', '|', '^', '∑', '→', '←']);

export function excludeReason(sentence: string): ExcludeReason | null {
  const tokens = sentence.split(/\s+/).map((t) => t.replace(/^[([{"'“‘]+|[)\]}"'”’.,;:]+$/g, ''));
  const strayLetters = tokens.filter((t) => /^\p{L}$/u.test(t) && !['a', 'A', 'I'].includes(t)).length;
  if (
    strayLetters >= 2 ||
    tokens.some((t) => MATH_SYMBOLS.has(t)) ||
    /[\u{E000}-\u{F8FF}\u{2200}-\u{22FF}\u{1D400}-\u{1D7FF}]/u.test(sentence)
  ) {
    return 'math';
  }
  if (/https?:\/\/|www\.|\b[\w-]+\.(?:org|com|net|edu|io)\b/i.test(sentence)) return 'url';
  const numeric = tokens.map((t) => /^[-+±]?\d[\d.,]*%?$/.test(t));
  let run = 0;
  let longest = 0;
  for (const n of numeric) {
    run = n ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const share = numeric.filter(Boolean).length / Math.max(1, tokens.length);
  if (longest >= 4 || (tokens.length >= 6 && share >= 0.4)) return 'table';
  if (/.\b(?:Figure|Table)\s*\d+\s*:/.test(sentence)) return 'caption';
  return null;
}

/** The sentence with its middle pair of adjacent distinct alphabetic words exchanged. */
export function swapAdjacent(sentence: string): string | null {
  const words = [...sentence.matchAll(/\S+/g)];
  const pairs: number[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i]![0];
    const b = words[i + 1]![0];
    if (/^\p{L}{2,}$/u.test(a) && /^\p{L}{2,}$/u.test(b) && a.toLowerCase() !== b.toLowerCase())
      pairs.push(i);
  }
  if (pairs.length === 0) return null;
  const i = pairs[Math.floor(pairs.length / 2)]!;
  const a = words[i]!;
  const b = words[i + 1]!;
  return `${sentence.slice(0, a.index)}${b[0]}${sentence.slice(a.index + a[0].length, b.index)}${a[0]}${sentence.slice(b.index + b[0].length)}`;
}

interface GoldParse {
  abstract?: string;
  pdf_parse: { abstract?: { text: string }[]; body_text: { text: string }[] };
}

export function goldSentences(gold: GoldParse): {
  candidates: string[];
  kept: string[];
  excluded: Record<ExcludeReason, number>;
} {
  const paragraphs = [...(gold.pdf_parse.abstract ?? []), ...gold.pdf_parse.body_text].map((p) => p.text);
  const candidates = paragraphs.flatMap(splitGoldSentences).filter((s) => s.length >= 40);
  const excluded: Record<ExcludeReason, number> = { math: 0, url: 0, table: 0, caption: 0 };
  const kept: string[] = [];
  for (const s of candidates) {
    const reason = excludeReason(s);
    if (reason) excluded[reason]++;
    else kept.push(s);
  }
  return { candidates, kept, excluded };
}

const squash = (s: string, keep: RegExp) => s.normalize('NFKD').toLowerCase().replace(keep, '');

function missCause(text: string, sentence: string): MissCause {
  const noHyphen = /[^\p{L}\p{N}\p{P}\p{S}]|-/gu;
  if (squash(text, noHyphen).includes(squash(sentence, noHyphen))) return 'hyphen';
  const alnum = /[^\p{L}\p{N}]/gu;
  const t = squash(text, alnum);
  const q = squash(sentence, alnum);
  if (t.includes(q)) return 'symbols';
  const half = Math.floor(q.length / 2);
  if (half >= 15 && t.includes(q.slice(0, half)) && t.includes(q.slice(half))) return 'interrupted';
  return 'other';
}

export function measurePaper(paper: string, doc: Document, gold: GoldParse): PaperMeasurement {
  const prepared = preparePaper(doc.text);
  const { candidates, kept, excluded } = goldSentences(gold);
  const misses: Record<MissCause, number> = { hyphen: 0, symbols: 0, interrupted: 0, other: 0 };
  const missed: PaperMeasurement['missed'] = [];
  let located = 0;
  let swapped = 0;
  let falseAccepts = 0;
  for (const sentence of kept) {
    const match = matchQuote(prepared, sentence, { mode: 'strict' });
    if (match.matched) located++;
    else {
      const cause = missCause(doc.text, sentence);
      misses[cause]++;
      missed.push({ sentence, cause, nearest: match.nearest?.text.slice(0, 300) ?? '' });
    }
    const variant = swapAdjacent(sentence);
    if (variant === null) continue;
    swapped++;
    if (matchQuote(prepared, variant, { mode: 'strict', nearest: false }).matched) falseAccepts++;
  }
  return {
    paper,
    candidates: candidates.length,
    excluded,
    sentences: kept.length,
    located,
    swapped,
    falseAccepts,
    misses,
    missed,
  };
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

export function renderTable(rows: readonly PaperMeasurement[]): string {
  const total = rows.reduce(
    (t, r) => ({
      candidates: t.candidates + r.candidates,
      sentences: t.sentences + r.sentences,
      located: t.located + r.located,
      swapped: t.swapped + r.swapped,
      falseAccepts: t.falseAccepts + r.falseAccepts,
    }),
    { candidates: 0, sentences: 0, located: 0, swapped: 0, falseAccepts: 0 },
  );
  const lines = [
    '| paper | sentences ≥ 40 chars | excluded (math / url / table / caption) | gold quotes | located | false accepts on swapped | misses (hyphen / symbols / interrupted / other) |',
    '|---|---:|---|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const e = r.excluded;
    const m = r.misses;
    lines.push(
      `| ${r.paper} | ${r.candidates} | ${e.math} / ${e.url} / ${e.table} / ${e.caption} | ${r.sentences} | ${r.located} (${pct(r.located, r.sentences)}) | ${r.falseAccepts} of ${r.swapped} (${pct(r.falseAccepts, r.swapped)}) | ${m.hyphen} / ${m.symbols} / ${m.interrupted} / ${m.other} |`,
    );
  }
  lines.push(
    `| **all** | ${total.candidates} | | ${total.sentences} | ${total.located} (${pct(total.located, total.sentences)}) | ${total.falseAccepts} of ${total.swapped} (${pct(total.falseAccepts, total.swapped)}) | |`,
  );
  return lines.join('\n');
}
