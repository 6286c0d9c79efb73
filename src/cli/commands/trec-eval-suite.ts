import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readTextFile } from '../../io/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

/** One line of trec_eval's COMMANDS.txt, run through `citegeist trec-eval`. */
export interface SuiteCase {
  expected: string;
  args: string[];
  /** null when an input file is in none of the folders (the case is skipped). */
  passed: boolean | null;
  missing: string[];
  /** Output lines that differ from the expected file (0 when byte-identical). */
  differingLines: number;
}

/**
 * Runs every command of trec_eval 10.0's regression suite (COMMANDS.txt in `folders[0]`) and
 * compares the output with the expected file byte for byte. File names in a command are looked
 * up in each folder in turn, so the bundled fixtures can be completed by ../shared.
 */
export async function runTrecEvalSuite(folders: readonly string[]): Promise<SuiteCase[]> {
  const find = (name: string) => folders.map((f) => join(f, name)).find((p) => existsSync(p));
  const commands = readTextFile(join(folders[0] as string, 'COMMANDS.txt'), 'trec_eval test suite')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const cases: SuiteCase[] = [];
  for (const line of commands) {
    const [expected, ...args] = line.trim().split(/\s+/) as [string, ...string[]];
    // Input files: the judgements and the run (the last two arguments) and the -Z file.
    const inputs = [...args.slice(-2), ...args.filter((_a, i) => args[i - 1] === '-Z')];
    const missing = [expected, ...inputs].filter((name) => !find(name));
    if (missing.length) {
      cases.push({ expected, args, passed: null, missing, differingLines: 0 });
      continue;
    }
    const argv = args.map((a) => (inputs.includes(a) ? (find(a) as string) : a));
    const { io, stdout, stderr } = memoryIo();
    const code = await runCli(['trec-eval', ...argv], io);
    const want = readTextFile(find(expected) as string, 'expected output');
    const got = code === 0 ? stdout() : stderr();
    const a = got.split('\n');
    const b = want.split('\n');
    let differing = Math.abs(a.length - b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) differing++;
    cases.push({ expected, args, passed: got === want, missing, differingLines: differing });
  }
  return cases;
}
