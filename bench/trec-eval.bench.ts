/**
 * `npm run bench -- trec-eval`: the trec_eval port on a run the size of the QASPER retrieval table
 * (1,000 topics × 100 documents, 50 judgements per topic), as ratios to parsing that run, measured
 * in the same passes (min and median of 5 interleaved passes; the machine is shared).
 */
import { loadavg } from 'node:os';
import { parseQrels, parseRun } from '../src/formats/index.js';
import { trecEval } from '../src/retrieve/index.js';
import { createRandom } from '../src/stats/index.js';

function files(): { qrels: string; run: string } {
  const random = createRandom(7);
  const qrels: string[] = [];
  const run: string[] = [];
  for (let t = 0; t < 1000; t++) {
    for (let d = 0; d < 50; d++) qrels.push(`q${t} 0 p${t}-${d * 3} ${random() < 0.2 ? 1 : 0}`);
    for (let r = 0; r < 100; r++)
      run.push(`q${t} Q0 p${t}-${Math.floor(random() * 200)}x${r} ${r + 1} ${(100 - r) / 7} bench`);
  }
  return { qrels: qrels.join('\n'), run: run.join('\n') };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] as number, median: s[Math.floor(s.length / 2)] as number };
};

export default async function (): Promise<void> {
  const { qrels: qrelsText, run: runText } = files();
  const qrels = parseQrels(qrelsText);
  const cases: [string, () => unknown][] = [
    ['parse the run (baseline)', () => parseRun(runText)],
    [
      'QASPER table measures (ndcg_cut.10, recall.1,5,10, recip_rank, -c)',
      () =>
        trecEval(qrels, parseRun(runText), {
          measures: ['ndcg_cut.10', 'recall.1,5,10', 'recip_rank'],
          complete: true,
        }),
    ],
    ['official', () => trecEval(qrels, parseRun(runText))],
    ['all_trec', () => trecEval(qrels, parseRun(runText), { measures: ['all_trec'] })],
  ];
  const times = cases.map(() => [] as number[]);
  for (const [, f] of cases) f(); // warm-up
  for (let pass = 0; pass < 5; pass++) {
    cases.forEach(([, f], i) => {
      const t0 = performance.now();
      f();
      (times[i] as number[]).push(performance.now() - t0);
    });
  }
  const base = stats(times[0] as number[]);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; baseline ${base.min.toFixed(1)} ms min, ${base.median.toFixed(1)} ms median`,
  );
  cases.forEach(([name], i) => {
    const s = stats(times[i] as number[]);
    console.log(
      `${name}: ${(s.min / base.min).toFixed(2)}× min, ${(s.median / base.median).toFixed(2)}× median (${s.min.toFixed(1)} ms min)`,
    );
  });
}
