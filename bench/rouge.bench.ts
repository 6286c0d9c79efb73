/**
 * `npm run bench -- rouge`: ROUGE-L on 10,000 answer pairs (issue 17's goal: under 1 s).
 *
 * Pairs: QASPER dev reference answers (free-form answers and joined extractive spans) against
 * answer-length predictions cut from the evidence paragraphs (the first one to three sentences),
 * cycled to 10,000 pairs; synthetic pairs from a fixed vocabulary when ../shared/data is absent.
 * Baseline, in the same run: a direct transcription of rouge-score's `_score_lcs` (tokenize, then a
 * full (m+1)×(n+1) table of JS arrays comparing token strings). Five interleaved passes; min and
 * median are printed with the load average, because this machine is shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fmeasure, RougeScorer, rougeTokenize } from '../src/grade/index.js';
import { createRandom } from '../src/stats/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';

const PAIRS = 10_000;
const PASSES = 5;
const GOAL_MS = 1000;

function qasperPairs(): [string, string][] | null {
  const file = sharedDataPath('qasper-dev', 'questions_validation.json');
  if (!existsSync(file)) return null;
  const questions = JSON.parse(readFileSync(file, 'utf8')) as {
    answers: { free_form_answer: string; extractive_spans: string[]; evidence: string[] }[];
  }[];
  const pairs: [string, string][] = [];
  for (const q of questions) {
    for (const a of q.answers) {
      const reference = a.free_form_answer || a.extractive_spans.join(', ');
      const evidence = a.evidence.find((e) => !e.startsWith('FLOAT')) ?? '';
      const prediction = evidence
        .split(/(?<=\.)\s+/)
        .slice(0, 1 + (pairs.length % 3))
        .join(' ');
      if (reference && prediction) pairs.push([reference, prediction]);
    }
  }
  return Array.from({ length: PAIRS }, (_, i) => pairs[i % pairs.length]!);
}

function syntheticPairs(): [string, string][] {
  const random = createRandom(7);
  const vocab = Array.from({ length: 3000 }, (_, i) => `word${i.toString(36)}`);
  const text = (n: number) =>
    Array.from({ length: n }, () => vocab[Math.floor(random() ** 2 * vocab.length)]).join(' ');
  return Array.from({ length: PAIRS }, () => [
    text(5 + Math.floor(random() * 20)),
    text(20 + Math.floor(random() * 40)),
  ]);
}

/** rouge-score's `_score_lcs` transcribed as is: full table, arrays of arrays, string compares. */
function naiveRougeL(target: string, prediction: string): number {
  const t = rougeTokenize(target);
  const p = rougeTokenize(prediction);
  if (t.length === 0 || p.length === 0) return 0;
  const table = Array.from({ length: t.length + 1 }, () => new Array<number>(p.length + 1).fill(0));
  for (let i = 1; i <= t.length; i++) {
    for (let j = 1; j <= p.length; j++) {
      table[i]![j] =
        t[i - 1] === p[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  const lcs = table[t.length]![p.length]!;
  return fmeasure(lcs / p.length, lcs / t.length);
}

function time(f: () => number): { ms: number; checksum: number } {
  const t0 = performance.now();
  const checksum = f();
  return { ms: performance.now() - t0, checksum };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function (): Promise<void> {
  const real = qasperPairs();
  const pairs = real ?? syntheticPairs();
  console.log(
    `${PAIRS.toLocaleString('en')} pairs (${real ? 'QASPER dev answers vs evidence sentences' : 'synthetic: ../shared/data absent'})`,
  );
  const runs: Record<string, number[]> = {
    baseline: [],
    rougeL: [],
    'rougeL --stemmer': [],
    'rouge1,2,L,Lsum --stemmer': [],
  };
  const sums: Record<string, number> = {};
  const variants: Record<string, () => number> = {
    baseline: () => pairs.reduce((s, [t, p]) => s + naiveRougeL(t, p), 0),
    rougeL: () => {
      const scorer = new RougeScorer(['rougeL']);
      return pairs.reduce((s, [t, p]) => s + scorer.score(t, p).rougeL!.fmeasure, 0);
    },
    'rougeL --stemmer': () => {
      const scorer = new RougeScorer(['rougeL'], { stemmer: true });
      return pairs.reduce((s, [t, p]) => s + scorer.score(t, p).rougeL!.fmeasure, 0);
    },
    'rouge1,2,L,Lsum --stemmer': () => {
      const scorer = new RougeScorer(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], { stemmer: true });
      return pairs.reduce((s, [t, p]) => s + scorer.score(t, p).rougeLsum!.fmeasure, 0);
    },
  };
  for (const f of Object.values(variants)) f(); // warm-up
  for (let pass = 0; pass < PASSES; pass++) {
    for (const [name, f] of Object.entries(variants)) {
      const { ms, checksum } = time(f);
      runs[name]!.push(ms);
      sums[name] = checksum;
    }
  }
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (2 cores)`,
  );
  console.log(
    `agreement: mean ROUGE-L F baseline ${(sums.baseline! / PAIRS).toFixed(6)}, citegeist ${(sums.rougeL! / PAIRS).toFixed(6)}`,
  );
  const base = median(runs.baseline!);
  for (const [name, ms] of Object.entries(runs)) {
    const verdict =
      name === 'baseline' ? '' : `; goal < ${GOAL_MS} ms: ${median(ms) < GOAL_MS ? 'met' : 'NOT met'}`;
    console.log(
      `${name.padEnd(26)} min ${Math.min(...ms).toFixed(0)} ms, median ${median(ms).toFixed(0)} ms = ${(median(ms) / base).toFixed(2)}× baseline${verdict}`,
    );
  }
}
