import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedDataPath } from './shared-data.js';

/**
 * Tools for the fault campaign (`npm run test:faults`): run the built CLI as a separate process,
 * kill it with SIGKILL at a chosen moment, and read what it left behind. Nothing here is used by
 * citegeist itself.
 */

export interface CliProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

/** Starts `node <main> …argv` in `cwd` with exactly `env` (plus PATH). */
export function startCli(main: string, argv: string[], cwd: string, env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [main, ...argv], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => out, stderr: () => err };
}

/** When to kill: after a delay, or as soon as `ready()` holds (polled every 5 ms). */
export type KillMoment = { afterMs: number } | { when: () => boolean; timeoutMs: number };

/** Kills the process with SIGKILL at `moment`; says whether it was killed or had finished first. */
export async function killAt(p: CliProcess, moment: KillMoment): Promise<'killed' | 'finished'> {
  let finished = false;
  void p.exited.then(() => {
    finished = true;
  });
  const started = Date.now();
  for (;;) {
    if (finished) return 'finished';
    const due =
      'afterMs' in moment
        ? Date.now() - started >= moment.afterMs
        : moment.when() || Date.now() - started >= moment.timeoutMs;
    if (due) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  if (finished) return 'finished';
  p.child.kill('SIGKILL');
  const { signal } = await p.exited;
  return signal === 'SIGKILL' ? 'killed' : 'finished';
}

/** What a JSONL file holds: parsed lines, lines that are not JSON, and whether the last is cut short. */
export interface JsonlState {
  values: Record<string, unknown>[];
  /** Lines that do not parse, the torn last line not included. */
  corrupt: number;
  /** The file does not end with a newline (a write cut short). */
  torn: boolean;
}

export function readJsonlState(path: string): JsonlState {
  if (!existsSync(path)) return { values: [], corrupt: 0, torn: false };
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const torn = text.length > 0 && !text.endsWith('\n');
  const complete = torn ? lines.slice(0, -1) : lines;
  const values: Record<string, unknown>[] = [];
  let corrupt = 0;
  for (const line of complete) {
    if (line === '') continue;
    try {
      values.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      corrupt++;
    }
  }
  return { values, corrupt, torn };
}

/** Lines in a file so far (cheap progress for a kill moment). */
export function lineCount(path: string): number {
  if (!existsSync(path)) return 0;
  const size = statSync(path).size;
  if (size === 0) return 0;
  let n = 0;
  const text = readFileSync(path);
  for (const byte of text) if (byte === 10) n++;
  return n;
}

/** Rows whose id occurs more than once, and ids of `expected` that are absent. */
export function rowAccounting(
  rows: readonly Record<string, unknown>[],
  idField: string,
  expected: readonly string[],
): { duplicated: number; lost: number; extra: number } {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(String(r[idField]), (seen.get(String(r[idField])) ?? 0) + 1);
  const want = new Set(expected);
  return {
    duplicated: [...seen.values()].reduce((a, n) => a + (n - 1), 0),
    lost: expected.filter((id) => !seen.has(id)).length,
    extra: [...seen.keys()].filter((id) => !want.has(id)).length,
  };
}

/** The newest modification time under a folder (is dist/ older than src/?). */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const info = statSync(join(dir, name));
    t = Math.max(t, info.isDirectory() ? newest(join(dir, name)) : info.mtimeMs);
  }
  return t;
}

/**
 * The built CLI (`dist/cli/main.js`) under `root`, rebuilt first when src/ changed since the last
 * build: process tests run citegeist as a user would.
 */
/** The repository's root and its built CLI (`dist/cli/main.js`, built by `builtCli`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUILT_CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');

/**
 * A new folder with `papers/` holding the QASPER dev papers `from`..`to` (in name order), and
 * `run(argv)` running the built CLI there to its end; `addPapers` copies more in.
 */
export function qasperWorkspace(prefix: string, from: number, to: number) {
  const cwd = mkdtempSync(join(tmpdir(), prefix));
  const papersDir = sharedDataPath('qasper-dev', 'papers');
  const addPapers = (a: number, b: number) => {
    for (const f of readdirSync(papersDir).sort().slice(a, b))
      copyFileSync(join(papersDir, f), join(cwd, 'papers', f));
  };
  mkdirSync(join(cwd, 'papers'));
  addPapers(from, to);
  const run = async (argv: string[]) => {
    const p = startCli(BUILT_CLI, argv, cwd, {});
    const { code } = await p.exited;
    return { code, out: p.stdout(), err: p.stderr() };
  };
  return { cwd, run, addPapers };
}

export function builtCli(root: string): string {
  const main = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(main) || statSync(main).mtimeMs < newest(join(root, 'src'))) {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
  return main;
}

/** Starts `citegeist worker` and waits until it takes calls (rejects if it exits first). */
export async function startWorker(
  main: string,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CliProcess> {
  const p = startCli(main, ['worker', ...argv], cwd, env);
  const started = Date.now();
  while (!/taking calls/.test(p.stderr())) {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`worker exited: ${p.stderr()}`);
    if (Date.now() - started > 30_000) throw new Error(`worker did not start in 30 s: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return p;
}
