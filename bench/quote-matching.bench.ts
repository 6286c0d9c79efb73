/**
 * Quote matching throughput on a ~60-page paper (ISSUE 2: 10,000 quotes well under a second).
 *
 * The paper is real QASPER full text concatenated to ~180k characters, with PDF noise injected
 * (running-header lines with page numbers, `[12]` markers, superscript footnote markers, line-break
 * hyphens) so that the strict mode's gapped rule and the no-space rule get work. 10,000 quotes:
 * 40% clean sentences of the paper (some cross an injected insertion), 20% sentences with changed
 * spacing and curly quotes, 20% with two adjacent (different) words swapped (negatives: strict mode
 * must match none of them; researchqa's prefix rules accept a swap beyond the prefix, by design),
 * 20% sentences from other papers (misses). It prints how many of each kind matched. Baseline in the same run: `normalizeQuote` + `String.indexOf` over the
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

type Kind = 'sentence' | 'respaced' | 'swapped' | 'foreign';
interface BenchQuote {
  readonly kind: Kind;
  readonly text: string;
}

function makeQuotes(clean: string, others: string[], random: () => number): BenchQuote[] {
  const own = sentences(clean);
  const foreign = others.flatMap(sentences);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const quotes: BenchQuote[] = [];
  while (quotes.length < QUOTES) {
    const r = random();
    const s = pick(own);
    if (r < 0.4) quotes.push({ kind: 'sentence', text: s });
    else if (r < 0.6) {
      quotes.push({ kind: 'respaced', text: `\u201C${s.replace(/ /g, '  ').replace(/'/g, '\u2019')}\u201D` });
    } else if (r < 0.8) {
      const words = s.split(' ');
      const k = 1 + Math.floor(random() * (words.length - 2));
      if (words[k]!.toLowerCase() === words[k + 1]!.toLowerCase()) continue;
      [words[k], words[k + 1]] = [words[k + 1]!, words[k]!];
      quotes.push({ kind: 'swapped', text: words.join(' ') });
    } else quotes.push({ kind: 'foreign', text: pick(foreign) });
  }
  return quotes;
}

/** Runs `fn`; returns its value, wall-clock ms and CPU ms of this process (user + system). */
function time<T>(fn: () => T): [T, number, number] {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return [value, wall, (used.user + used.system) / 1000];
}

const fmt = (wall: number, cpu: number) => `${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU`;

export default async function quoteMatchingBench(): Promise<void> {
  const random = rng(42);
  const { paper: clean, others } = loadPapers();
  const paper = injectNoise(clean, random);
  const quotes = makeQuotes(clean, others, random);
  console.log(
    `paper: ${paper.length} characters (~${Math.round(paper.length / 3000)} pages), ${quotes.length} quotes`,
  );

  const [prepared, prepareMs, prepareCpu] = time(() => preparePaper(paper));
  console.log(`preparePaper: ${fmt(prepareMs, prepareCpu)}`);

  // Warm-up (JIT) on 1,000 quotes, so the first timed configuration is not penalised.
  for (const q of quotes.slice(0, 1000)) {
    prepared.normalized.text.indexOf(normalizeQuote(q.text).text);
    matchQuote(prepared, q.text, { mode: 'researchqa' });
    matchQuote(prepared, q.text, { mode: 'strict' });
  }

  const [baselineHits, baselineMs, baselineCpu] = time(() => {
    let hits = 0;
    for (const q of quotes) if (prepared.normalized.text.indexOf(normalizeQuote(q.text).text) >= 0) hits++;
    return hits;
  });
  console.log(
    `baseline normalizeQuote+indexOf: ${fmt(baselineMs, baselineCpu)} (${Math.round((quotes.length / baselineCpu) * 1000)} quotes/CPU-s, ${baselineHits} exact)`,
  );

  for (const mode of ['researchqa', 'strict'] as const) {
    for (const nearest of [true, false]) {
      const [results, ms, cpu] = time(() =>
        quotes.map((q) => matchQuote(prepared, q.text, { mode, nearest })),
      );
      const byRule = new Map<string, number>();
      for (const r of results) byRule.set(r.rule, (byRule.get(r.rule) ?? 0) + 1);
      const rules = [...byRule].map(([r, n]) => `${r} ${n}`).join(', ');
      console.log(
        `matchQuote ${mode}${nearest ? '' : ' (nearest off)'}: ${fmt(ms, cpu)} for ${quotes.length} ` +
          `(${Math.round((quotes.length / cpu) * 1000)} quotes/CPU-s, ${(cpu / baselineCpu).toFixed(2)}x baseline CPU) [${rules}]`,
      );
      if (!nearest) continue;
      const rates = (['sentence', 'respaced', 'swapped', 'foreign'] as const).map((kind) => {
        const idx = quotes.flatMap((q, i) => (q.kind === kind ? [i] : []));
        const matched = idx.filter((i) => results[i]!.matched).length;
        return `${kind} ${matched}/${idx.length}`;
      });
      console.log(`  matched by kind: ${rates.join(', ')}`);
    }
  }

  const ref = JSON.parse(readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8')) as {
    pairs: { a: string; b: string }[];
  };
  const pairs = ref.pairs.map((p) => [p.a.toLowerCase(), p.b.toLowerCase()] as const);
  const [, ratioMs, ratioCpu] = time(() => {
    let sum = 0;
    for (let rep = 0; rep < 5; rep++) for (const [a, b] of pairs) sum += sequenceRatio(a, b);
    return sum;
  });
  const [, lcsMs, lcsCpu] = time(() => {
    let sum = 0;
    for (let rep = 0; rep < 5; rep++) for (const [a, b] of pairs) sum += naiveLcsLength(a, b);
    return sum;
  });
  const n = pairs.length * 5;
  const avg = pairs.reduce((s, [a, b]) => s + a.length + b.length, 0) / pairs.length;
  console.log(
    `sequenceRatio: ${fmt(ratioMs, ratioCpu)} for ${n} pairs = ${Math.round((n / ratioCpu) * 1000)} pairs/CPU-s ` +
      `(difflib reference pairs, avg ${Math.round(avg)} chars a+b); ${(ratioCpu / lcsCpu).toFixed(2)}x the CPU of a ` +
      `naive O(n*m) LCS-length DP on the same pairs (${fmt(lcsMs, lcsCpu)})`,
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
