/**
 * Quote matching throughput on a ~60-page paper (ISSUE 2: 10,000 quotes well under a second).
 *
 * The paper is real QASPER full text concatenated to ~180k characters, with PDF noise injected
 * (running-header lines with page numbers, `[12]` markers, superscript footnote markers, line-break
 * hyphens) so that the strict mode's gapped rule and the no-space rule get work. 10,000 quotes:
 * 40% clean sentences of the paper (some cross an injected insertion), 20% sentences with changed
 * spacing and curly quotes, 20% with two adjacent words swapped (negatives), 20% sentences from
 * other papers (misses). Baseline in the same run: `normalizeQuote` + `String.indexOf` over the
 * normalised text (what a naive exact-only matcher costs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { matchQuote, normalizeQuote, preparePaper, sequenceRatio } from '../src/text/index.js';

const TARGET_CHARS = 180_000;
const QUOTES = 10_000;

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function loadPapers(): { paper: string; others: string[] } {
  const dir = sharedDataPath('qasper-dev', 'papers');
  const files = readdirSync(dir).sort();
  let paper = '';
  const others: string[] = [];
  for (const file of files) {
    const text = readFileSync(`${dir}/${file}`, 'utf8');
    if (paper.length < TARGET_CHARS) paper += `${text}\n`;
    else others.push(text);
    if (others.length >= 20) break;
  }
  return { paper, others };
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 40 && s.length <= 400 && !s.includes('#'));
}

/** Inserts PDF noise into the paper after some spaces (every ~150 characters, one of four kinds). */
function injectNoise(text: string, random: () => number): string {
  let out = '';
  let last = 0;
  let page = 1;
  for (let i = 150; i < text.length; i += 100 + Math.floor(random() * 100)) {
    const space = text.indexOf(' ', i);
    if (space < 0) break;
    out += text.slice(last, space);
    const kind = Math.floor(random() * 4);
    if (kind === 0) out += `\nProceedings of ACL 2018 ${page++}\n`;
    else if (kind === 1) out += ' [12]';
    else if (kind === 2) out += '\u00B9';
    else {
      // line-break hyphen inside the next word
      const end = text.indexOf(' ', space + 1);
      const word = text.slice(space + 1, end);
      if (/^[a-z]{6,}$/.test(word)) {
        out += ` ${word.slice(0, 3)}-\n${word.slice(3)}`;
        last = end;
        i = end;
        continue;
      }
    }
    last = space;
    i = space;
  }
  return out + text.slice(last);
}

function makeQuotes(clean: string, others: string[], random: () => number): string[] {
  const own = sentences(clean);
  const foreign = others.flatMap(sentences);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const quotes: string[] = [];
  for (let i = 0; i < QUOTES; i++) {
    const r = random();
    const s = pick(own);
    if (r < 0.4) quotes.push(s);
    else if (r < 0.6) quotes.push(`\u201C${s.replace(/ /g, '  ').replace(/'/g, '\u2019')}\u201D`);
    else if (r < 0.8) {
      const words = s.split(' ');
      const k = 1 + Math.floor(random() * (words.length - 2));
      [words[k], words[k + 1]] = [words[k + 1]!, words[k]!];
      quotes.push(words.join(' '));
    } else quotes.push(pick(foreign));
  }
  return quotes;
}

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
}

export default async function quoteMatchingBench(): Promise<void> {
  const random = rng(42);
  const { paper: clean, others } = loadPapers();
  const paper = injectNoise(clean, random);
  const quotes = makeQuotes(clean, others, random);
  console.log(
    `paper: ${paper.length} characters (~${Math.round(paper.length / 3000)} pages), ${quotes.length} quotes`,
  );

  const [prepared, prepareMs] = time(() => preparePaper(paper));
  console.log(`preparePaper: ${prepareMs.toFixed(1)} ms`);

  const [baselineHits, baselineMs] = time(() => {
    let hits = 0;
    for (const q of quotes) if (prepared.normalized.text.indexOf(normalizeQuote(q).text) >= 0) hits++;
    return hits;
  });
  console.log(
    `baseline normalizeQuote+indexOf: ${baselineMs.toFixed(1)} ms (${Math.round((quotes.length / baselineMs) * 1000)} quotes/s, ${baselineHits} exact)`,
  );

  for (const mode of ['researchqa', 'strict'] as const) {
    for (const nearest of [true, false]) {
      const [counts, ms] = time(() => {
        const byRule = new Map<string, number>();
        for (const q of quotes) {
          const rule = matchQuote(prepared, q, { mode, nearest }).rule;
          byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
        }
        return byRule;
      });
      const rules = [...counts].map(([r, n]) => `${r} ${n}`).join(', ');
      console.log(
        `matchQuote ${mode}${nearest ? '' : ' (nearest off)'}: ${ms.toFixed(1)} ms for ${quotes.length} ` +
          `(${Math.round((quotes.length / ms) * 1000)} quotes/s, ${(ms / baselineMs).toFixed(2)}x baseline) [${rules}]`,
      );
    }
  }

  const ref = JSON.parse(readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8')) as {
    pairs: { a: string; b: string }[];
  };
  const pairs = ref.pairs.map((p) => [p.a.toLowerCase(), p.b.toLowerCase()] as const);
  const [, ratioMs] = time(() => {
    let sum = 0;
    for (let rep = 0; rep < 5; rep++) for (const [a, b] of pairs) sum += sequenceRatio(a, b);
    return sum;
  });
  const [, lcsMs] = time(() => {
    let sum = 0;
    for (let rep = 0; rep < 5; rep++) for (const [a, b] of pairs) sum += naiveLcsLength(a, b);
    return sum;
  });
  const n = pairs.length * 5;
  const avg = pairs.reduce((s, [a, b]) => s + a.length + b.length, 0) / pairs.length;
  console.log(
    `sequenceRatio: ${Math.round((n / ratioMs) * 1000)} pairs/s on the difflib reference pairs (avg ${Math.round(avg)} chars a+b); ` +
      `${(ratioMs / lcsMs).toFixed(2)}x a naive O(n*m) LCS-length DP on the same pairs`,
  );
}

/** Baseline for sequenceRatio: the textbook dynamic-programming LCS length on two rows. */
function naiveLcsLength(a: string, b: string): number {
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}
