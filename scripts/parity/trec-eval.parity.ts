/**
 * trec_eval 10.0 rows of docs/fidelity.md.
 * 1. trec_eval's own regression suite (its test/ folder: COMMANDS.txt), byte for byte.
 * 2. With TREC_EVAL_BIN naming a trec_eval binary built from the v10.0 release: held-out inputs
 *    (see trec-eval-heldout.ts) run through both, stdout compared byte for byte and the exit status
 *    (0 or not) compared, so where trec_eval stops part way the lines it printed before stopping
 *    are compared too. `-v` prints "10.0-rc3" for the release as for its release candidate, so the
 *    build's commit is taken from TREC_EVAL_COMMIT, or from `git rev-parse HEAD` when the binary
 *    sits in a git checkout, and written into the row; a build of another commit fails the row.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runTrecEvalSuite } from '../../src/cli/commands/trec-eval-suite.js';
import { memoryIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { sharedDataPath } from '../../src/testing/index.js';
import type { ParityCheck } from './parity-check.js';
import { heldOutCases } from './trec-eval-heldout.js';

const BUNDLED = join(
  import.meta.dirname,
  '..',
  '..',
  'src',
  'retrieve',
  'eval',
  '__fixtures__',
  'trec-eval-10.0',
);

/** The build the held-out comparison is meant for: the v10.0 release, with commit 9812815. */
export const TREC_EVAL_RELEASE = { version: '10.0', repo: 'usnistgov/trec_eval', commit: 'f4253652' };

/** Which trec_eval `bin` is: what `-v` prints and the commit it was built from (null if unknown). */
export function trecEvalBuild(bin: string): { version: string; commit: string | null } {
  const v = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  const version =
    `${v.stdout ?? ''}${v.stderr ?? ''}`.replace(/^trec_eval version\s*/, '').trim() || 'unknown';
  let commit = process.env.TREC_EVAL_COMMIT?.trim() || null;
  if (!commit) {
    const git = spawnSync('git', ['-C', dirname(bin), 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    if (git.status === 0) commit = git.stdout.trim();
  }
  return { version, commit };
}

async function suiteRow(): Promise<ParityCheck> {
  const cases = await runTrecEvalSuite([BUNDLED, sharedDataPath('trec', 'nist-test')]);
  const passed = cases.filter((c) => c.passed === true).length;
  const skipped = cases.filter((c) => c.passed === null);
  const failed = cases.filter((c) => c.passed === false);
  const notes = [
    ...failed.map((c) => `${c.expected} differs on ${c.differingLines} lines`),
    ...skipped.map((c) => `${c.expected} not run (needs ${c.missing.join(', ')} from ../shared)`),
  ];
  return {
    reference: 'trec_eval 10.0',
    compared: '`citegeist trec-eval` output of each command in the suite, byte for byte',
    files:
      "trec_eval's regression suite (test/: COMMANDS.txt, qrels, runs, prefs, judgment groups, z-scores, expected outputs)",
    result: `${passed} of ${cases.length} byte-identical${notes.length ? ` (${notes.join('; ')})` : ''}`,
    pass: passed === cases.length,
  };
}

async function heldOutRow(bin: string): Promise<ParityCheck> {
  const build = trecEvalBuild(bin);
  const release = TREC_EVAL_RELEASE;
  const isRelease =
    build.commit !== null &&
    build.commit.length >= 7 &&
    (build.commit.startsWith(release.commit) || release.commit.startsWith(build.commit));
  const buildName = `${release.repo} build of ${build.commit ? `commit ${build.commit.slice(0, 8)}` : 'an unknown commit'}, \`-v\`: ${build.version}`;
  console.log(`  trec_eval binary: ${bin} (${buildName})`);
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-trec-heldout-'));
  const cases = heldOutCases(dir);
  let lines = 0;
  let stops = 0;
  const mismatches: string[] = [];
  for (const c of cases) {
    const ref = spawnSync(bin, c.args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const { io, stdout } = memoryIo();
    const code = await runCli(['trec-eval', ...c.args], io);
    // stdout must be the same bytes, including what trec_eval printed before stopping; an error
    // must be an error in both (the codes and stderr wording are each program's own).
    const a = stdout().split('\n');
    const b = (ref.stdout ?? '').split('\n');
    let differ = Math.abs(a.length - b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) differ++;
    const theirStop = ref.status !== 0;
    const ourStop = code !== 0;
    if (theirStop && ourStop) stops++;
    lines += b.length - 1;
    const status =
      theirStop === ourStop ? '' : `, trec_eval exit ${ref.status ?? ref.signal}, citegeist exit ${code}`;
    if (differ || status) mismatches.push(`${c.name}: ${differ} lines differ${status}`);
    console.log(
      `  ${differ || status ? 'DIFF' : 'same'}  ${c.name} (${b.length - 1} lines${theirStop ? `, trec_eval exit ${ref.status ?? ref.signal}` : ''}${status})`,
    );
  }
  const compared = cases.length;
  const qasper = cases.filter((c) => c.name.startsWith('QASPER')).length;
  const notes = isRelease
    ? []
    : [
        build.commit
          ? `the binary is not the v${release.version} release build (${release.commit})`
          : 'the build commit is unknown: set TREC_EVAL_COMMIT',
      ];
  return {
    reference: `trec_eval ${release.version} (${buildName})`,
    compared:
      'stdout of held-out commands byte for byte (every per-topic and summary line, and where trec_eval stops part way the lines it printed first) and whether the command failed',
    files: `${cases.length} commands: seeded synthetic qrels/runs/prefs/judgment groups with ties, unjudged and unpooled documents, judged topics missing from the run with and without -c, duplicate documents in a later topic, -l2, -M, -J, -Z, -N and measure parameters${qasper ? `; citegeist BM25 runs over QASPER dev (${qasper} commands)` : ''}`,
    result: `${[
      mismatches.length
        ? `${mismatches.length} of ${compared} differ: ${mismatches.join('; ')}`
        : `${compared} of ${compared} identical (${lines.toLocaleString('en')} lines; ${stops} commands stop with an error in both)`,
      ...notes,
    ].join('; ')}`,
    pass: mismatches.length === 0 && isRelease,
  };
}

export async function run(): Promise<ParityCheck[]> {
  const rows = [await suiteRow()];
  const bin = process.env.TREC_EVAL_BIN;
  if (bin && existsSync(bin)) rows.push(await heldOutRow(bin));
  else
    console.log(
      `trec_eval held-out comparison skipped: set TREC_EVAL_BIN to a trec_eval binary built from the v${TREC_EVAL_RELEASE.version} release (${TREC_EVAL_RELEASE.repo} @ ${TREC_EVAL_RELEASE.commit}) to run it.`,
    );
  return rows;
}
