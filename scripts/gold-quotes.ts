/**
 * Gold quotes from an S2ORC parse and their measurement against an extracted Document.
 *
 * Gold sentences: the abstract and `pdf_parse.body_text` paragraphs, split into sentences by
 * citegeist's `splitSentences`, keeping those of at least 40 characters. A sentence the gold parser
 * itself garbled is left out, for the first of these reasons that applies:
 * - `math`: two or more stray one-letter tokens (a letter other than "a", "A", "I" standing alone
 *   once surrounding brackets and punctuation are stripped: "p 1 ! p 2"), or a lone math symbol
 *   token (`! = + × ∈ ≤ ≥ ∼ | ^ ∑`) or a character from a private-use or math-symbol block;
 * - `url`: a URL or a bare domain (`http://`, `https://`, `www.`, `name.org|com|net|edu|io`);
 * - `table`: a row of table numbers (four or more consecutive numeric tokens, or numeric tokens
 *   making up at least 40% of at least 6 tokens);
 * - `caption`: the parser spliced a figure or table caption into the sentence
 *   ("… Xiong et al., Figure 1 : Part of the literature graph. 2017)"): "Figure N :" or
 *   "Table N :" after the sentence start;
 * - `citation`: the parser dropped (part of) a citation, leaving unbalanced brackets ("(e.g.,
 *   Lample et al., 2016 , and") or an empty slot ("(Tu et al., 2017; )", "work by , they").
 *
 * Swapped variant: the middle one of the adjacent pairs of distinct alphabetic words (2+ letters)
 * is exchanged; sentences without such a pair get no variant.
 *
 * Miss causes (first that applies): `hyphen` (found once hyphens are ignored on both sides),
 * `symbols` (found once everything but letters and digits is ignored), `interrupted` (its first
 * and second halves are found apart: a column break, footnote, float or header in between),
 * `other`.
 */
import { matchQuote, preparePaper, splitSentences } from '../src/text/index.js';

export type ExcludeReason = 'math' | 'url' | 'table' | 'caption' | 'citation';
export type MissCause = 'hyphen' | 'symbols' | 'interrupted' | 'other';

export interface PaperMeasurement {
  paper: string;
  candidates: number;
  /** Located among all candidates, excluded ones included (NaN unless `allCandidates`). */
  candidatesLocated: number;
  excluded: Record<ExcludeReason, number>;
  sentences: number;
  located: number;
  swapped: number;
  falseAccepts: number;
  misses: Record<MissCause, number>;
  /** Strict matches by the rule that matched (exact, no-space, gapped). */
  byRule: Record<string, number>;
  /** The same quotes and swapped variants under the researchqa rules (a)–(d). */
  researchqaLocated: number;
  researchqaFalseAccepts: number;
  missed: { sentence: string; cause: MissCause; nearest: string }[];
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
  const count = (re: RegExp) => (sentence.match(re) ?? []).length;
  if (
    count(/\(/g) !== count(/\)/g) ||
    count(/\[/g) !== count(/\]/g) ||
    /[(;,]\s*\)|\(\s*[;,]|\b(?:by|in|of|see)\s+[,;.)]/.test(sentence)
  ) {
    return 'citation';
  }
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
  const candidates = paragraphs
    .flatMap((p) => splitSentences(p).map((s) => s.text))
    .filter((s) => s.length >= 40);
  const excluded: Record<ExcludeReason, number> = { math: 0, url: 0, table: 0, caption: 0, citation: 0 };
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

export function measurePaper(
  paper: string,
  text: string,
  gold: GoldParse,
  options: { allCandidates?: boolean; skippable?: readonly { start: number; end: number }[] } = {},
): PaperMeasurement {
  const prepared = preparePaper(text, options.skippable ? { skippable: options.skippable } : {});
  const { candidates, kept, excluded } = goldSentences(gold);
  const misses: Record<MissCause, number> = { hyphen: 0, symbols: 0, interrupted: 0, other: 0 };
  const missed: PaperMeasurement['missed'] = [];
  let located = 0;
  let swapped = 0;
  let falseAccepts = 0;
  let researchqaLocated = 0;
  let researchqaFalseAccepts = 0;
  const byRule: Record<string, number> = {};
  for (const sentence of kept) {
    const match = matchQuote(prepared, sentence, { mode: 'strict' });
    if (matchQuote(prepared, sentence, { mode: 'researchqa', nearest: false }).matched) researchqaLocated++;
    if (match.matched) {
      located++;
      byRule[match.rule] = (byRule[match.rule] ?? 0) + 1;
    } else {
      const cause = missCause(text, sentence);
      misses[cause]++;
      missed.push({ sentence, cause, nearest: match.nearest?.text.slice(0, 300) ?? '' });
    }
    const variant = swapAdjacent(sentence);
    if (variant === null) continue;
    swapped++;
    if (matchQuote(prepared, variant, { mode: 'strict', nearest: false }).matched) falseAccepts++;
    if (matchQuote(prepared, variant, { mode: 'researchqa', nearest: false }).matched)
      researchqaFalseAccepts++;
  }
  const candidatesLocated = options.allCandidates
    ? candidates.filter((c) => matchQuote(prepared, c, { mode: 'strict', nearest: false }).matched).length
    : Number.NaN;
  return {
    paper,
    candidates: candidates.length,
    candidatesLocated,
    excluded,
    sentences: kept.length,
    located,
    swapped,
    falseAccepts,
    misses,
    byRule,
    researchqaLocated,
    researchqaFalseAccepts,
    missed,
  };
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

export function renderTable(rows: readonly PaperMeasurement[]): string {
  const total = rows.reduce(
    (t, r) => ({
      candidates: t.candidates + r.candidates,
      candidatesLocated: t.candidatesLocated + r.candidatesLocated,
      sentences: t.sentences + r.sentences,
      located: t.located + r.located,
      swapped: t.swapped + r.swapped,
      falseAccepts: t.falseAccepts + r.falseAccepts,
    }),
    { candidates: 0, candidatesLocated: 0, sentences: 0, located: 0, swapped: 0, falseAccepts: 0 },
  );
  const lines = [
    '| paper | sentences ≥ 40 chars (located) | excluded (math / url / table / caption / citation) | gold quotes | located | false accepts on swapped | misses (hyphen / symbols / interrupted / other) |',
    '|---|---:|---|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const e = r.excluded;
    const m = r.misses;
    lines.push(
      `| ${r.paper} | ${r.candidates} (${pct(r.candidatesLocated, r.candidates)}) | ${e.math} / ${e.url} / ${e.table} / ${e.caption} / ${e.citation} | ${r.sentences} | ${r.located} (${pct(r.located, r.sentences)}) | ${r.falseAccepts} of ${r.swapped} (${pct(r.falseAccepts, r.swapped)}) | ${m.hyphen} / ${m.symbols} / ${m.interrupted} / ${m.other} |`,
    );
  }
  lines.push(
    `| **all** | ${total.candidates} (${pct(total.candidatesLocated, total.candidates)}) | | ${total.sentences} | ${total.located} (${pct(total.located, total.sentences)}) | ${total.falseAccepts} of ${total.swapped} (${pct(total.falseAccepts, total.swapped)}) | |`,
  );
  lines.push(
    '',
    '| paper | strict matches by rule (exact / no-space / gapped) | researchqa: located | researchqa: false accepts on swapped |',
    '|---|---|---:|---:|',
  );
  for (const r of rows) {
    const b = r.byRule;
    lines.push(
      `| ${r.paper} | ${b.exact ?? 0} / ${b['no-space'] ?? 0} / ${b.gapped ?? 0} | ${r.researchqaLocated} (${pct(r.researchqaLocated, r.sentences)}) | ${r.researchqaFalseAccepts} of ${r.swapped} (${pct(r.researchqaFalseAccepts, r.swapped)}) |`,
    );
  }
  return lines.join('\n');
}
