import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

/** trec_eval 10.0's test files, bundled with the retrieval evaluation code. */
const FIXTURES = join(import.meta.dirname, '..', '..', 'retrieve', 'eval', '__fixtures__', 'trec-eval-10.0');
const BINARY_REFERENCE = sharedDataPath('trec', 'trec_eval.binary.q.txt');

describe('citegeist trec-eval', () => {
  it.skipIf(!existsSync(BINARY_REFERENCE))(
    'prints exactly what trec_eval 10.0 prints (-q, repeated -m; reference in ../shared)',
    async () => {
      const { io, stdout } = memoryIo({ cwd: FIXTURES });
      const argv = [
        'trec-eval',
        '-q',
        '-m',
        'recall.1,5,10,20,100',
        '-m',
        'ndcg_cut.5,10,20',
        '-m',
        'recip_rank',
      ];
      const code = await runCli([...argv, '-m', 'map', '-m', 'P.5,10', 'qrels.test', 'results.test'], io);
      expect(code).toBe(0);
      expect(stdout()).toBe(readFileSync(BINARY_REFERENCE, 'utf8'));
    },
  );

  it('accepts -l and -c and reports a missing file with a fix', async () => {
    const { io, stdout } = memoryIo({ cwd: FIXTURES });
    expect(
      await runCli(['trec-eval', '-c', '-l', '2', '-m', 'num_rel', 'qrels.rel_level', 'results.trunc'], io),
    ).toBe(0);
    expect(stdout()).toMatch(/^num_rel {15}\tall\t\d+\n$/);
    const bad = memoryIo({ cwd: FIXTURES });
    expect(await runCli(['trec-eval', 'nope.qrels', 'results.test'], bad.io)).toBe(1);
    expect(bad.stderr()).toMatch(/FILE_NOT_FOUND[\s\S]*nope\.qrels/);
  });
});

describe('citegeist compare', () => {
  it('compares two runs over the qrels topics (same run → zero difference, all ties)', async () => {
    const { io, stdout } = memoryIo({ cwd: FIXTURES });
    const argv = [
      'compare',
      'results.test',
      'results.test',
      '--qrels',
      'qrels.test',
      '-m',
      'map',
      '-m',
      'P.10',
    ];
    expect(await runCli(argv, io)).toBe(0);
    expect(stdout()).toMatch(/^measure\s+n\s+A=results\.test\s+B=results\.test/);
    expect(stdout()).toMatch(/\nmap\s+3\s+0\.1785\s+0\.1785\s+\+0\.0000\s+0\/3\/0\s+n\/a/);
    expect(stdout()).toMatch(/\nP_10\s+3\s+0\.3000/);
  });
});
