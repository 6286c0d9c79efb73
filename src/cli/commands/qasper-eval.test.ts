import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath, skipWithoutSharedData } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const dev = (...p: string[]) => sharedDataPath('qasper-dev', ...p);

describe('citegeist qasper-eval', () => {
  it.for([
    [[], 'pred_mixed.eval.json'],
    [['--text-evidence-only'], 'pred_mixed.eval_text_only.json'],
  ] as [string[], string][])('prints the official JSON %j', async ([flags, expected], ctx) => {
    skipWithoutSharedData(['qasper-dev', 'qasper-dev-gold.json'], ['qasper-dev', 'reference-eval'])(ctx);
    const { io, stdout } = memoryIo();
    const args = ['qasper-eval', '--gold', dev('qasper-dev-gold.json')];
    args.push('--predictions', dev('reference-eval', 'pred_mixed.jsonl'), ...flags);
    expect(await runCli(args, io)).toBe(0);
    expect(JSON.parse(stdout())).toStrictEqual(
      JSON.parse(readFileSync(dev('reference-eval', expected), 'utf8')),
    );
  });

  it('names a missing file', async () => {
    const { io, stderr } = memoryIo();
    const code = await runCli(['qasper-eval', '--gold', 'nope.json', '--predictions', 'x.jsonl'], io);
    expect(code).toBe(1);
    expect(stderr()).toMatch(/QASPER gold file .*nope\.json does not exist/);
  });
});
