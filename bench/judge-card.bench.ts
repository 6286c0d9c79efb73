/**
 * `npm run bench -- judge-card`: a judge card over 100,000 judged items with 10,000 bootstrap
 * resamples (issue 29's target: ≤ 3 s). A synthetic 5-point ordinal set, two annotators per item
 * (so the human ceiling is measured on 100,000 annotator pairs too) and four item groups (each with
 * its own intervals): every part of the card a real set has. The judge agrees with the first
 * annotator 60% of the time and is off by one otherwise.
 */
import { buildJudgeCard, type HumanSet, type JudgeLabels } from '../src/grade/index.js';
import { createRandom } from '../src/stats/index.js';
import { loadAverage } from './interleaved.js';

const N = 100_000;
const ITERATIONS = 10_000;
const TARGET_MS = 3_000;

function synthetic(): { set: HumanSet; labels: JudgeLabels } {
  const random = createRandom(29);
  const draw = () => 1 + Math.floor(random() * 5);
  const clip = (v: number) => Math.max(1, Math.min(5, v));
  const items = Array.from({ length: N }, (_, i) => {
    const first = draw();
    const second = random() < 0.55 ? first : clip(first + (random() < 0.5 ? -1 : 1));
    return {
      id: `item-${i}`,
      inputs: {},
      labels: [
        { annotator: 'a1', value: first },
        { annotator: 'a2', value: second },
      ],
      group: `g${i % 4}`,
    };
  });
  const values = new Map(
    items.map((item) => {
      const h = item.labels[0]!.value;
      return [item.id, random() < 0.6 ? h : clip(h + (random() < 0.5 ? -1 : 1))] as const;
    }),
  );
  const set: HumanSet = {
    name: 'synthetic',
    dimension: null,
    scale: {
      kind: 'ordinal',
      categories: [1, 2, 3, 4, 5].map((code) => ({ code, name: String(code) })),
      meaning: '1–5',
    },
    items,
    sha256: '0'.repeat(64),
    licence: 'synthetic',
    source: 'bench/judge-card.bench.ts',
  };
  return {
    set,
    labels: { values, failed: [], continuous: false, manifest: null, orders: new Map(), problems: [] },
  };
}

export default async function main(): Promise<void> {
  const { set, labels } = synthetic();
  const identity = { model: 'synthetic', prompt_version: null, kind: 'labels-file' };
  const times: number[] = [];
  const cpu: number[] = [];
  let card: ReturnType<typeof buildJudgeCard> | undefined;
  for (let pass = 0; pass < 3; pass++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    card = buildJudgeCard(set, labels, identity, {
      iterations: ITERATIONS,
      seed: 0,
      version: 'bench',
      reference: 'each',
    });
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  const k = card!.measures.kappa_quadratic!;
  console.log(
    `card over ${N.toLocaleString('en')} items × 2 annotators, ${ITERATIONS.toLocaleString('en')} resamples (judge vs people, ceiling, 4 groups): ` +
      `best ${(best / 1000).toFixed(2)} s of ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s (target ≤ ${TARGET_MS / 1000} s: ${best <= TARGET_MS ? 'met' : 'MISSED'}); load ${loadAverage()}`,
  );
  // On a shared machine the wall time includes waiting for a core; the process's CPU time does not.
  console.log(
    `  CPU time of this process: best ${(Math.min(...cpu) / 1000).toFixed(2)} s of ${cpu.map((t) => (t / 1000).toFixed(2)).join(', ')} s`,
  );
  console.log(
    `  quadratic κ ${k.estimate?.toFixed(4)} [${k.lower?.toFixed(4)}, ${k.upper?.toFixed(4)}], pairs ${card!.counts.pairs}`,
  );
}
