/**
 * `npm run bench -- startup`: how long citegeist takes to start, side by side with `node -e 0`
 * (issue 26's goal: `citegeist --version` and `citegeist <command> --help` within 2× of it).
 *
 * Each pass runs every case once as a user would (`node dist/cli/main.js …`, rebuilt first when a source is newer), passes
 * interleaved, min and median reported with the load average because this machine is shared.
 * "every command loaded" is what start-up cost before commands loaded lazily: the program with
 * all 41 command modules imported (`createProgram` without a command), as `--version` did then.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './grading.bench.js';
import { formatRatio, formatTiming, interleaved, loadAverage } from './interleaved.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const PASSES = 9;
const GOAL = 2;

const ALL_LOADED = `const { createProgram } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'cli', 'program.js')).href)});
const { memoryIo } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'cli', 'io.js')).href)});
await createProgram(memoryIo().io);`;

const CASES: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'citegeist --version': [MAIN, '--version'],
  'citegeist --help': [MAIN, '--help'],
  'citegeist answer --help': [MAIN, 'answer', '--help'],
  'citegeist grade faithfulness --help': [MAIN, 'grade', 'faithfulness', '--help'],
  'citegeist nuggets generate --help': [MAIN, 'nuggets', 'generate', '--help'],
  'citegeist reports judge --help': [MAIN, 'reports', 'judge', '--help'],
  'every command loaded (the start-up before)': ['--input-type=module', '-e', ALL_LOADED],
};

function run(args: string[]): number {
  const t0 = performance.now();
  const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (out.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${out.stderr.slice(-2000)}`);
  return ms;
}

export default async function startupBench(): Promise<void> {
  ensureBuilt();
  const before = loadAverage();
  const steps = Object.fromEntries(Object.entries(CASES).map(([name, args]) => [name, () => run(args)]));
  const t = await interleaved(PASSES, steps);
  const base = t['node -e 0']!;
  console.log(`start-up, ${PASSES} interleaved passes (load average ${before} → ${loadAverage()})`);
  for (const name of Object.keys(CASES)) {
    const timing = t[name]!;
    const ratio = name === 'node -e 0' ? 'baseline' : formatRatio(timing, base, { max: GOAL });
    console.log(`  ${name.padEnd(44)} ${formatTiming(timing)}  ${ratio}`);
  }
}
