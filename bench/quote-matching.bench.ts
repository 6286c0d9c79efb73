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
 * normalised text (what a naive exact-only matcher costs). The difflib port (`sequenceRatio`, what
 * the grader spends most of its time in) is timed against CPython's own difflib on the 300
 * reference pairs. Interleaved passes (min and median, wall and CPU; load printed).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { matchQuote, normalizeQuote, preparePaper, sequenceRatio } from '../src/text/index.js';
import { formatRatio, interleaved, loadAverage, summarize, type Timing, withCpu } from './interleaved.js';

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
const PASSES = Number(process.env.BENCH_PASSES ?? 3);

const fmt = (wall: Timing, cpu: Timing) =>
  `${wall.min.toFixed(0)} ms wall (median ${wall.median.toFixed(0)}), ${cpu.min.toFixed(0)} ms CPU (median ${cpu.median.toFixed(0)})`;

/** CPython's difflib on the same pairs, timed in Python (ms per pass); null without python3. */
function cpythonDifflib(pairs: readonly (readonly [string, string])[]): number[] | null {
  const script = `
import difflib, json, sys, time
pairs = json.load(sys.stdin)
out = []
for _ in range(${PASSES}):
    t = time.perf_counter()
    for a, b in pairs: difflib.SequenceMatcher(None, a, b).ratio()
    out.append((time.perf_counter() - t) * 1000)
print(json.dumps(out))
`;
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(pairs), encoding: 'utf8' });
  return run.status === 0 ? (JSON.parse(run.stdout) as number[]) : null;
}

export default async function quoteMatchingBench(): Promise<void> {
  const random = rng(42);
  const { paper: clean, others } = loadPapers();
  const paper = injectNoise(clean, random);
  const quotes = makeQuotes(clean, others, random);
  console.log(
    `paper: ${paper.length} characters (~${Math.round(paper.length / 3000)} pages), ${quotes.length} quotes, ${PASSES} interleaved passes; load ${loadAverage()}`,
  );
  let prepared = preparePaper(paper);
  // Warm-up (JIT) on 1,000 quotes, so the first timed configuration is not penalised.
  for (const q of quotes.slice(0, 1000)) {
    prepared.normalized.text.indexOf(normalizeQuote(q.text).text);
    matchQuote(prepared, q.text, { mode: 'researchqa' });
    matchQuote(prepared, q.text, { mode: 'strict' });
  }
  const configs = (['researchqa', 'strict'] as const).flatMap((mode) =>
    [true, false].map((nearest) => ({ mode, nearest, name: `${mode}${nearest ? '' : ' (nearest off)'}` })),
  );
  const cpu: Record<string, number[]> = {};
  const results: Record<string, ReturnType<typeof matchQuote>[]> = {};
  let baselineHits = 0;
  const step = (name: string, work: () => void) => {
    cpu[name] = [];
    return () => withCpu(cpu[name]!, work);
  };
  const steps: Record<string, () => Promise<number>> = {
    preparePaper: step('preparePaper', () => {
      prepared = preparePaper(paper);
    }),
    baseline: step('baseline', () => {
      baselineHits = 0;
      for (const q of quotes)
        if (prepared.normalized.text.indexOf(normalizeQuote(q.text).text) >= 0) baselineHits++;
    }),
  };
  for (const c of configs) {
    steps[c.name] = step(c.name, () => {
      results[c.name] = quotes.map((q) => matchQuote(prepared, q.text, { mode: c.mode, nearest: c.nearest }));
    });
  }
  const t = await interleaved(PASSES, steps);
  const used = (name: string) => summarize(cpu[name]!);
  console.log(`preparePaper: ${fmt(t.preparePaper!, used('preparePaper'))}`);
  const base = used('baseline');
  console.log(
    `baseline normalizeQuote+indexOf: ${fmt(t.baseline!, base)} (${Math.round((quotes.length / base.min) * 1000)} quotes/CPU-s, ${baselineHits} exact)`,
  );
  for (const c of configs) {
    const c1 = used(c.name);
    const byRule = new Map<string, number>();
    for (const r of results[c.name]!) byRule.set(r.rule, (byRule.get(r.rule) ?? 0) + 1);
    const rules = [...byRule].map(([r, n]) => `${r} ${n}`).join(', ');
    console.log(
      `matchQuote ${c.name}: ${fmt(t[c.name]!, c1)} for ${quotes.length} ` +
        `(${Math.round((quotes.length / c1.min) * 1000)} quotes/CPU-s, ${(c1.min / base.min).toFixed(2)}× baseline CPU; ` +
        `goal 10,000 quotes well under a second: ${t[c.name]!.min < 1000 ? 'met' : 'NOT met'}) [${rules}]`,
    );
    if (!c.nearest) continue;
    const rates = (['sentence', 'respaced', 'swapped', 'foreign'] as const).map((kind) => {
      const idx = quotes.flatMap((q, i) => (q.kind === kind ? [i] : []));
      const matched = idx.filter((i) => results[c.name]![i]!.matched).length;
      return `${kind} ${matched}/${idx.length}`;
    });
    console.log(`  matched by kind: ${rates.join(', ')}`);
  }

  const ref = JSON.parse(readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8')) as {
    pairs: { a: string; b: string }[];
  };
  const pairs = ref.pairs.map((p) => [p.a.toLowerCase(), p.b.toLowerCase()] as const);
  const ratioCpu: number[] = [];
  const lcsCpu: number[] = [];
  const d = await interleaved(PASSES, {
    sequenceRatio: () =>
      withCpu(ratioCpu, () => {
        for (const [a, b] of pairs) sequenceRatio(a, b);
      }),
    lcs: () =>
      withCpu(lcsCpu, () => {
        for (const [a, b] of pairs) naiveLcsLength(a, b);
      }),
  });
  const avg = pairs.reduce((s, [a, b]) => s + a.length + b.length, 0) / pairs.length;
  const python = cpythonDifflib(pairs);
  console.log(
    `sequenceRatio: ${fmt(d.sequenceRatio!, summarize(ratioCpu))} for ${pairs.length} pairs ` +
      `(difflib reference pairs, avg ${Math.round(avg)} chars a+b; naive O(n·m) LCS-length DP: ${fmt(d.lcs!, summarize(lcsCpu))})`,
  );
  console.log(
    python
      ? `CPython ${spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout.trim()} difflib ratio() on the same pairs: ${summarize(python).min.toFixed(0)} ms (median ${summarize(python).median.toFixed(0)}); citegeist ${formatRatio(summarize(python), d.sequenceRatio!, { min: 1 })} faster`
      : 'CPython difflib: python3 not found, no reference',
  );
  console.log(`load ${loadAverage()} after`);
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
