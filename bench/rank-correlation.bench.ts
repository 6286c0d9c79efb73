/**
 * `npm run bench -- rank-correlation`: Kendall τ-b (O(n log n)) and Spearman at n = 5,000, 100,000
 * and 1,000,000 (50 distinct x values, heavy ties), against SciPy's `kendalltau` (τ-b) and
 * `spearmanr` on the same data when python3 can import SciPy (timed inside Python, so process
 * start-up is not counted), and against a naive O(n²) pair count at n = 5,000. Interleaved passes
 * (min and median, load printed); the values must agree with SciPy's to 1e-12. No goal beyond
 * agreement: the ratios say how citegeist's statistics compare with the reference library.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandom, kendallTauB, spearman } from '../src/stats/index.js';
import { formatTiming, interleaved, loadAverage, summarize, timed } from './interleaved.js';

const PASSES = Number(process.env.BENCH_PASSES ?? 3);

function sample(n: number, seed: number): [number[], number[]] {
  const random = createRandom(seed);
  const x = Array.from({ length: n }, () => Math.floor(random() * 50));
  const y = x.map((v) => v + Math.floor(random() * 30));
  return [x, y];
}

function naiveTauB(x: readonly number[], y: readonly number[]): number {
  let s = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      s += Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
      if (x[i] === x[j]) tx++;
      if (y[i] === y[j]) ty++;
    }
  }
  const n0 = (x.length * (x.length - 1)) / 2;
  return s / Math.sqrt((n0 - tx) * (n0 - ty));
}

interface ScipyResult {
  tau: number;
  rho: number;
  tauMs: number[];
  rhoMs: number[];
}

/** SciPy on the same data, timed in Python; null when it cannot be imported. */
function scipy(x: number[], y: number[]): ScipyResult | null {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-scipy-'));
  writeFileSync(join(dir, 'in.json'), JSON.stringify({ x, y }));
  const script = `
import json, time
from scipy.stats import kendalltau, spearmanr
d = json.load(open(${JSON.stringify(join(dir, 'in.json'))}))
out = {"tauMs": [], "rhoMs": []}
for _ in range(${PASSES}):
    t = time.perf_counter(); out["tau"] = float(kendalltau(d["x"], d["y"]).statistic); out["tauMs"].append((time.perf_counter() - t) * 1000)
    t = time.perf_counter(); out["rho"] = float(spearmanr(d["x"], d["y"]).statistic); out["rhoMs"].append((time.perf_counter() - t) * 1000)
print(json.dumps(out))
`;
  const run = spawnSync('python3', ['-c', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) return null;
  return JSON.parse(run.stdout) as ScipyResult;
}

export default async function (): Promise<void> {
  console.log(`load ${loadAverage()}`);
  const [bx, by] = sample(5000, 1);
  const naive = await interleaved(PASSES, { naive: () => timed(() => naiveTauB(bx, by)) });
  console.log(
    `naive O(n²) τ-b at n = 5,000: ${formatTiming(naive.naive!)}; |Δ| to kendallTauB ${Math.abs(kendallTauB(bx, by)! - naiveTauB(bx, by)).toExponential(1)}`,
  );
  for (const n of [5_000, 100_000, 1_000_000]) {
    const [x, y] = sample(n, 2);
    kendallTauB(x, y); // warm-up
    spearman(x, y);
    const t = await interleaved(PASSES, {
      kendall: () => timed(() => kendallTauB(x, y)),
      spearman: () => timed(() => spearman(x, y)),
    });
    const ref = scipy(x, y);
    let line = `n = ${n.toLocaleString('en')}: kendallTauB ${formatTiming(t.kendall!)}, spearman ${formatTiming(t.spearman!)}`;
    if (ref) {
      const [tau, rho] = [summarize(ref.tauMs), summarize(ref.rhoMs)];
      const agree = Math.max(Math.abs(kendallTauB(x, y)! - ref.tau), Math.abs(spearman(x, y)! - ref.rho));
      line +=
        `; SciPy kendalltau ${formatTiming(tau)}, spearmanr ${formatTiming(rho)}; ` +
        `citegeist / SciPy on minima: τ-b ${(t.kendall!.min / tau.min).toFixed(2)}×, ρ ${(t.spearman!.min / rho.min).toFixed(2)}×; ` +
        `values agree to ${agree.toExponential(1)} (${agree <= 1e-12 ? 'ok' : 'DIFFER'})`;
    } else {
      line += '; SciPy: not importable by python3 here, no reference';
    }
    console.log(line);
  }
  console.log(`load ${loadAverage()} after`);
}
