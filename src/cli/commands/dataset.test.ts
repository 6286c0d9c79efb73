import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath, skipWithoutSharedData } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const dev = (...p: string[]) => sharedDataPath('qasper-dev', ...p);

describe('citegeist dataset', () => {
  it('imports the QASPER dev split and converts it to eval_dataset.json and back', async (ctx) => {
    skipWithoutSharedData(
      ['qasper-dev', 'questions_validation.json'],
      ['qasper-dev', 'papers', '1909.00512.txt'],
    )(ctx);
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-cli-dataset-'));
    const { io, stdout } = memoryIo({ cwd: dir });
    const args = ['dataset', 'import', 'qasper', dev('questions_validation.json')];
    expect(await runCli([...args, '--papers', dev('papers'), '--out', 'qasper.jsonl'], io)).toBe(0);
    expect(stdout()).toMatch(
      /imported 1005 rows over 281 papers \(lookup 669, comprehension 276, adversarial 60\)/,
    );
    expect(await runCli(['dataset', 'convert', 'qasper.jsonl', 'eval_dataset.json'], io)).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'eval_dataset.json'), 'utf8')) as { total_rows: number };
    expect(json.total_rows).toBe(1005);
    expect(await runCli(['dataset', 'convert', 'eval_dataset.json', 'back.jsonl'], io)).toBe(0);
    expect(readFileSync(join(dir, 'back.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'qasper.jsonl'), 'utf8'),
    );
  });

  it('exits 1 and names skipped rows when converting a file with bad lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-cli-dataset-'));
    writeFileSync(
      join(dir, 'in.jsonl'),
      '{"row_id":"a","paper_id":"p","question_type":"lookup","question":"q"}\nnope\n',
    );
    const { io, stdout } = memoryIo({ cwd: dir });
    expect(await runCli(['dataset', 'convert', 'in.jsonl', 'out.json'], io)).toBe(1);
    expect(stdout()).toMatch(/wrote 1 rows[\s\S]*skipped .*in\.jsonl line 2: not JSON/);
  });

  it('refuses an unknown import format', async () => {
    const { io, stderr } = memoryIo();
    expect(await runCli(['dataset', 'import', 'squad', 'x.json', '--out', 'o.jsonl'], io)).toBe(1);
    expect(stderr()).toMatch(/Unknown import format "squad"/);
  });
});
