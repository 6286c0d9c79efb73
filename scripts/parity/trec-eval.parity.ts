/**
 * trec_eval 10.0 rows of docs/fidelity.md.
 * 1. trec_eval's own regression suite (its test/ folder: COMMANDS.txt), byte for byte.
 * 2. With TREC_EVAL_BIN naming a trec_eval 10.0 binary: held-out inputs (see trec-eval-heldout.ts)
 *    run through both, every printed line compared.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { runTrecEvalSuite } from '../../src/cli/setup/trec-eval-suite.js';
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
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-trec-heldout-'));
  const cases = heldOutCases(dir);
  let lines = 0;
  const mismatches: string[] = [];
  for (const c of cases) {
    const ref = spawnSync(bin, c.args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const { io, stdout, stderr } = memoryIo();
    const code = await runCli(['trec-eval', ...c.args], io);
    const ours = code === 0 ? stdout() : `exit ${code}: ${stderr()}`;
    const theirs = ref.status === 0 ? ref.stdout : `exit ${ref.status}: ${ref.stderr}`;
    const a = ours.split('\n');
    const b = theirs.split('\n');
    let differ = Math.abs(a.length - b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) differ++;
    lines += b.length - 1;
    if (differ) mismatches.push(`${c.name}: ${differ} lines differ`);
    console.log(`  ${differ ? 'DIFF' : 'same'}  ${c.name} (${b.length - 1} lines)`);
  }
  const compared = cases.length;
  const qasper = cases.filter((c) => c.name.startsWith('QASPER')).length;
  return {
    reference: 'trec_eval 10.0',
    compared:
      'every printed value (per topic and summary) of held-out runs, byte for byte, against a trec_eval 10.0 build',
    files: `${cases.length} commands: seeded synthetic qrels/runs/prefs/judgment groups with ties, unjudged and unpooled documents, missing topics, -c, -l2, -M, -J, -Z, -N and measure parameters${qasper ? `; citegeist BM25 runs over QASPER dev (${qasper} commands)` : ''}`,
    result: `${
      mismatches.length
        ? `${mismatches.length} of ${compared} differ: ${mismatches.join('; ')}`
        : `${compared} of ${compared} byte-identical (${lines.toLocaleString('en')} lines)`
    }`,
    pass: mismatches.length === 0,
  };
}

export async function run(): Promise<ParityCheck[]> {
  const rows = [await suiteRow()];
  const bin = process.env.TREC_EVAL_BIN;
  if (bin && existsSync(bin)) rows.push(await heldOutRow(bin));
  else
    console.log(
      'trec_eval held-out comparison skipped: set TREC_EVAL_BIN to a trec_eval 10.0 binary to run it.',
    );
  return rows;
}
