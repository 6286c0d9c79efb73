/**
 * ResearchQA grading, end to end, against the published grader in the same run.
 *
 * 1. Digests (in-process): the 50,000-row workload (`grading-workload.ts`) graded by
 *    `gradeDeterministic` in one thread and with the default threads, for both alternative match
 *    modes; the digests of the four published metrics must agree across thread counts and stay as
 *    recorded in docs/performance.md (a change means the grades changed).
 * 2. End to end, at 1,000 and 50,000 rows: `citegeist grade --papers` (the built CLI, a process of
 *    its own), timed two ways in every pass (a first run that parses and caches the papers; papers
 *    cached) against the published grader's own functions run by CPython
 *    (`researchqa-grader.py`: `compute_citation_metrics` per row with the paper text,
 *    `compute_summary`), on the same files, over interleaved passes (min and median wall time;
 *    CPU time and peak RSS as each process reports them; load average printed). Goals: ≥ 10× at 1,000 rows, ≥ 100× at 50,000 rows, 50,000 rows in ≤ 300 MB. Every
 *    per-row value of the two must be identical.
 *
 * The published code is not in this repository: set CITEGEIST_RESEARCHQA_PUBLISHED to a module
 * holding its functions (see scripts/parity/researchqa/make-reference.py for which, and how).
 * Without it only citegeist is timed. BENCH_PASSES (default 3) sets the passes; with the reference
 * at 50,000 rows (839 s a pass on 2026-12-01 at load 1–2) the benchmark takes about 45 minutes.
 * BENCH_GRADING_ROWS (default `1000,50000`) sets the sizes, BENCH_GRADING_DIGESTS=0 skips part 1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatasetRow, RunRow } from '../src/core/index.js';
import { gradeDeterministic } from '../src/grade/index.js';
import { sharedDataPath } from '../src/testing/index.js';
import {
  buildWorkload,
  metricDigest,
  PUBLISHED_METRICS,
  readPapers,
  writePublishedFiles,
} from './grading-workload.js';
import {
  formatRatio,
  interleaved,
  loadAverage,
  type ProcessUsage,
  type Timing,
  timedProcess,
} from './interleaved.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const SIZES = (process.env.BENCH_GRADING_ROWS ?? '1000,50000').split(',').map(Number);
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const GOALS: Record<number, number> = { 1000: 10, 50000: 100 };
const MEMORY_GOAL_MB = 300;
const PUBLISHED = process.env.CITEGEIST_RESEARCHQA_PUBLISHED;

export default async function (): Promise<void> {
  const papersDir = sharedDataPath('qasper-dev', 'papers');
  if (!existsSync(papersDir)) {
    console.log(`skipped: ${papersDir} is absent (the QASPER dev papers; see ../shared/data/README.md)`);
    return;
  }
  const papers = readPapers(papersDir);
  const { rows, runs } = buildWorkload(papers, Math.max(...SIZES, 50_000));
  if (process.env.BENCH_GRADING_DIGESTS !== '0')
    await digests(rows.slice(0, 50_000), runs.slice(0, 50_000), papers);
  ensureBuilt();
  const out = join(HERE, '.out', 'grading');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  if (!PUBLISHED || !existsSync(PUBLISHED)) {
    console.log(
      'reference: CITEGEIST_RESEARCHQA_PUBLISHED is not set to the published grader module, so only citegeist is timed (see scripts/parity/researchqa/make-reference.py)',
    );
  }
  for (const size of SIZES) {
    const files = {
      dataset: join(out, `eval_dataset_${size}.json`),
      run: join(out, `eval_bench_${size}.json`),
    };
    writePublishedFiles(rows.slice(0, size), runs.slice(0, size), files);
    await endToEnd(size, files, papersDir, out);
  }
}

/** Section 1: the in-process digests, per match mode and thread count. */
async function digests(
  rows: readonly DatasetRow[],
  runs: readonly RunRow[],
  papers: Map<string, string>,
): Promise<void> {
  const jobs = rows.map((row, i) => ({ row, run: runs[i]! }));
  const quotes = runs.reduce((n, r) => n + r.citations.length, 0);
  console.log(`digests: ${rows.length} rows (${quotes} quotes, ${papers.size} papers), in-process`);
  for (const match of ['researchqa', 'span'] as const) {
    const seen = new Set<string>();
    for (const threads of [...new Set([1, Math.min(availableParallelism(), 8)])]) {
      const t0 = performance.now();
      const cpu = process.cpuUsage();
      const grades = await gradeDeterministic(jobs, (id) => papers.get(id) ?? null, {
        match,
        quoteMode: 'researchqa',
        threads,
      });
      const ms = performance.now() - t0;
      const used = process.cpuUsage(cpu);
      let digest = 0;
      for (const g of grades) digest = metricDigest(digest, g);
      seen.add(digest.toString(16));
      console.log(
        `  match=${match}, up to ${threads} thread(s): digest ${digest.toString(16)}; ${(ms / 1000).toFixed(2)} s, CPU ${((used.user + used.system) / 1e6).toFixed(2)} s; load ${loadAverage()}`,
      );
    }
    if (seen.size > 1) console.log(`  match=${match}: DIGESTS DIFFER across thread counts`);
  }
}

/** Section 2: one size, end to end, citegeist against the published grader. */
async function endToEnd(
  size: number,
  files: { dataset: string; run: string },
  papersDir: string,
  cwd: string,
): Promise<void> {
  const grades = join(cwd, `grades_${size}.jsonl`);
  const pythonOut = join(cwd, `python_${size}.json`);
  const citegeist = (): ProcessUsage => {
    for (const f of [grades, grades.replace(/\.jsonl$/, '.summary.json')]) rmSync(f, { force: true });
    const cli = join(ROOT, 'dist', 'cli', 'main.js');
    return timedProcess(
      process.execPath,
      [cli, 'grade', '--dataset', files.dataset, '--run', files.run, '--papers', papersDir, '--out', grades],
      { cwd },
    );
  };
  const python = (): ProcessUsage =>
    timedProcess('python3', [
      join(HERE, 'researchqa-grader.py'),
      PUBLISHED!,
      files.dataset,
      files.run,
      papersDir,
      pythonOut,
    ]);
  const withReference = PUBLISHED !== undefined && existsSync(PUBLISHED);
  console.log(`\n${size.toLocaleString('en')} rows, end to end (load ${loadAverage()} before)`);
  // Two ways a user meets `grade`, each timed in every pass: the first run in a working folder,
  // which parses the papers and caches them (with their match forms) in
  // `.citegeist/papers-cache.sqlite`, and any later one, which reads them from there (as grading
  // against an ingested corpus does). Neither looks for the gold evidence (`dataset check` does).
  const kinds = {
    first: { label: 'first run (papers parsed and cached)', clear: '.citegeist' },
    cached: { label: 'papers cached', clear: null },
  } as const;
  const usage: Record<string, ProcessUsage[]> = { python: [] };
  const steps: Record<string, () => number> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    usage[name] = [];
    steps[name] = () => {
      if (kind.clear) rmSync(join(cwd, kind.clear), { recursive: true, force: true });
      return record(usage[name]!, citegeist());
    };
  }
  if (withReference) steps.python = () => record(usage.python!, python());
  const t = await interleaved(PASSES, steps);
  for (const [name, kind] of Object.entries(kinds)) {
    console.log(`  citegeist grade, ${kind.label}: ${describeTiming(t[name]!, usage[name]!)}`);
  }
  if (size >= 50_000) {
    for (const name of Object.keys(kinds)) {
      const peak = Math.max(...usage[name]!.map((u) => u.maxRssMb));
      console.log(
        `  ${name}: peak RSS ${peak.toFixed(0)} MB (highest pass); goal ≤ ${MEMORY_GOAL_MB} MB: ${peak <= MEMORY_GOAL_MB ? 'met' : 'NOT met'}`,
      );
    }
  }
  if (!withReference) return;
  console.log(`  published grader (CPython ${pythonVersion()}): ${describeTiming(t.python!, usage.python!)}`);
  const goal = GOALS[size];
  const cpu = (u: ProcessUsage[]) => Math.min(...u.map((x) => x.cpuMs));
  for (const name of Object.keys(kinds)) {
    console.log(
      `  ratio, ${name}: ${formatRatio(t.python!, t[name]!, { min: goal ?? 1 })}; on CPU time ${(cpu(usage.python!) / cpu(usage[name]!)).toFixed(1)}×`,
    );
  }
  console.log(`  load ${loadAverage()} after`);
  console.log(`  ${compareRows(grades, pythonOut)}`);
}

function record(list: ProcessUsage[], u: ProcessUsage): number {
  list.push(u);
  return u.ms;
}

function describeTiming(t: Timing, usage: ProcessUsage[]): string {
  const cpu = usage.map((u) => u.cpuMs).sort((a, b) => a - b);
  const rss = usage.map((u) => u.maxRssMb).sort((a, b) => a - b);
  return (
    `${(t.min / 1000).toFixed(2)} s (median ${(t.median / 1000).toFixed(2)} s over ${t.all.length} passes); ` +
    `CPU ${(cpu[0]! / 1000).toFixed(2)} s (min); peak RSS ${rss[0]!.toFixed(0)}–${rss.at(-1)!.toFixed(0)} MB`
  );
}

/** Whether every per-row value of the four published metrics is the same in both outputs. */
function compareRows(gradesFile: string, pythonFile: string): string {
  const ours = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(gradesFile, 'utf8').split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const g = JSON.parse(line) as Record<string, unknown>;
    ours.set(String(g.row_id), g);
  }
  const theirs = (JSON.parse(readFileSync(pythonFile, 'utf8')) as { rows: Record<string, unknown>[] }).rows;
  let values = 0;
  const differ: string[] = [];
  for (const p of theirs) {
    const g = ours.get(String(p.row_id));
    for (const k of PUBLISHED_METRICS) {
      values++;
      if ((p[k] ?? null) !== (g?.[k] ?? null)) differ.push(`${p.row_id} ${k}: ${p[k]} vs ${g?.[k]}`);
    }
  }
  return differ.length === 0 && ours.size === theirs.length
    ? `per-row values: all ${values} identical (${theirs.length} rows × ${PUBLISHED_METRICS.length} metrics)`
    : `per-row values: ${differ.length} of ${values} DIFFER (${differ.slice(0, 3).join('; ')}); rows ${ours.size} vs ${theirs.length}`;
}

function pythonVersion(): string {
  return spawnSync('python3', ['--version'], { encoding: 'utf8' })
    .stdout.trim()
    .replace(/^Python /, '');
}

/** Builds `dist/` when a source file is newer than the CLI the benchmark runs. */
export function ensureBuilt(): void {
  const cli = join(ROOT, 'dist', 'cli', 'main.js');
  const built = existsSync(cli) ? statSync(cli).mtimeMs : 0;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) =>
      e.isDirectory()
        ? newer(join(dir, e.name))
        : e.name.endsWith('.ts') && statSync(join(dir, e.name)).mtimeMs > built,
    );
  if (!newer(join(ROOT, 'src'))) return;
  console.log('building dist/ (the benchmark runs the built CLI) …');
  const out = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`npm run build failed: ${out.stderr}`);
}
