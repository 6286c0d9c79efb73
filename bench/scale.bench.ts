/**
 * `npm run bench -- scale` (issue 30): citegeist against SQLite FTS5 on synthetic corpora of 1×,
 * 10× and 50× the QASPER dev papers (200× with BENCH_SCALE_LARGE=1; or BENCH_SCALES=1,10), built
 * by `scripts/synthetic-corpus.ts`, queried with the QASPER dev questions (the first 1,000).
 * Each step runs in its own process (`bench/scale-child.ts`), so peak RSS and the cold open are
 * its own. Index size is the index folder (citegeist) or the FTS5 database; "open" is opening the
 * index and checking it is current (citegeist) or opening the database (FTS5), before any query;
 * the cold query is the first one after that. BENCH_SCALE_DENSE=0 builds BM25 only.
 * The machine is shared: read the ratios, and the load average printed with each row.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadQasperDev } from '../scripts/qasper-corpus.js';
import { writeSyntheticCorpus } from '../scripts/synthetic-corpus.js';
import { sharedDataPath } from '../src/testing/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'scale-child.ts');

function step(args: string[]): Record<string, number> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', child, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`scale-child ${args.join(' ')} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

function duBytes(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + duBytes(join(path, name)), 0);
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const ms = (x: number | undefined) => (x === undefined ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(0));

export default async function scaleBench(): Promise<void> {
  const qasper = sharedDataPath('qasper-dev');
  const scales = process.env.BENCH_SCALES
    ? process.env.BENCH_SCALES.split(',').map(Number)
    : [1, 10, 50, ...(process.env.BENCH_SCALE_LARGE === '1' ? [200] : [])];
  const dense = process.env.BENCH_SCALE_DENSE !== '0';
  const root = mkdtempSync(join(tmpdir(), 'citegeist-scale-'));
  const queries = loadQasperDev(qasper)
    .questions.slice(0, 1000)
    .map((q) => q.question);
  const queriesFile = join(root, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(queries));
  console.log(
    `date ${new Date().toISOString()}; ${queries.length} queries; index ${dense ? 'BM25 + default embedder' : 'BM25 only'}`,
  );
  console.log(
    '| scale | papers | passages | engine | build s | build peak RSS MB | size MB | open ms | cold query ms | median ms | p95 ms | query peak RSS MB | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const steps: string[] = [];
  const curve: { passages: number; build: number; median: number }[] = [];
  try {
    for (const scale of scales) {
      const dir = join(root, `x${scale}`);
      mkdirSync(dir);
      const corpus = join(dir, 'corpus.sqlite');
      const papers = writeSyntheticCorpus(qasper, scale, corpus);
      const built = step(['index', corpus, dense ? 'dense' : 'bm25']);
      const manifest = JSON.parse(readFileSync(join(dir, 'index', 'manifest.json'), 'utf8')) as {
        passages: number;
        generation: string;
        build?: { workers: number; ms: Record<string, number> };
      };
      const opened = step(['open', corpus, queriesFile]);
      const fts = join(dir, 'fts.sqlite');
      const ftsBuilt = step(['fts-build', corpus, fts]);
      const ftsOpened = step(['fts-query', fts, queriesFile]);
      const load = loadavg()[0]?.toFixed(1);
      const row = (engine: string, b: Record<string, number>, o: Record<string, number>, size: number) =>
        `| ${scale}× | ${papers} | ${manifest.passages} | ${engine} | ${((b.ms as number) / 1000).toFixed(1)} | ${b.peakMb} | ${mb(size)} | ${ms(o.openMs)} | ${ms(o.coldQueryMs)} | ${ms(o.medianMs)} | ${ms(o.p95Ms)} | ${o.peakMb} | ${load} |`;
      console.log(row('citegeist', built, opened, duBytes(join(dir, 'index', manifest.generation))));
      console.log(row('SQLite FTS5', ftsBuilt, ftsOpened, duBytes(fts)));
      if (manifest.build) steps.push(`${scale}×: ${JSON.stringify(manifest.build)}`);
      curve.push({
        passages: manifest.passages,
        build: built.ms as number,
        median: opened.medianMs as number,
      });
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(
      `\ncitegeist's build steps (workers, wall ms; the merge overlaps the dense pass):\n${steps.join('\n')}`,
    );
    console.log(`\n${growth(curve)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The fitted growth of citegeist's build time and query median with the number of passages: the
 * exponent a of time ∝ passages^a, least squares on log–log between the scales measured (1:
 * linear), and the times it projects to 5M passages (100,000 papers).
 */
function growth(points: { passages: number; build: number; median: number }[]): string {
  if (points.length < 2) return 'growth: needs two scales or more';
  const powerLaw = (ys: number[]) => {
    const xs = points.map((p) => Math.log(p.passages));
    const ls = ys.map(Math.log);
    const mx = xs.reduce((a, b) => a + b) / xs.length;
    const my = ls.reduce((a, b) => a + b) / ls.length;
    let sxy = 0;
    let sxx = 0;
    xs.forEach((x, i) => {
      sxy += (x - mx) * ((ls[i] as number) - my);
      sxx += (x - mx) ** 2;
    });
    const a = sxy / sxx;
    return { a, at5M: Math.exp(my + a * (Math.log(5e6) - mx)) };
  };
  const build = powerLaw(points.map((p) => p.build));
  const median = powerLaw(points.map((p) => p.median));
  return [
    `growth (log–log least squares over ${points.length} scales): build ∝ passages^${build.a.toFixed(2)}, projected ${(build.at5M / 1000).toFixed(0)} s at 5M passages;`,
    `query median ∝ passages^${median.a.toFixed(2)}, projected ${median.at5M.toFixed(1)} ms at 5M passages`,
  ].join(' ');
}
