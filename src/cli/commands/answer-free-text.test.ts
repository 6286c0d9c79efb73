import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRecords } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

describe('citegeist answer --free-text', () => {
  it('writes plain answers without the citation contract, ready for qa-eval', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-free-text-'));
    mkdirSync(join(cwd, 'papers'));
    writeFileSync(
      join(cwd, 'papers', 'p1.md'),
      '# A study\n\n## Methods\n\nWe collected 1,204 survey responses from teachers in three districts.\n',
    );
    const row = {
      row_id: 'r1',
      paper_id: 'p1',
      question_type: 'lookup',
      question: 'How many survey responses were collected?',
      expected_answer: '1,204 responses',
    };
    writeFileSync(join(cwd, 'd.jsonl'), `${JSON.stringify(row)}\n`);
    const { io, stderr } = memoryIo({ cwd });
    const args = [
      'answer',
      '--dataset',
      'd.jsonl',
      '--model',
      'extractive',
      '--free-text',
      '--papers',
      'papers',
      '--out',
      'run.jsonl',
    ];
    expect(await runCli(args, io), stderr()).toBe(0);
    const out = runRecords(join(cwd, 'run.jsonl')).rows[0];
    expect(out).toMatchObject({
      answer: 'We collected 1,204 survey responses from teachers in three districts.',
      citations: [],
      contract: false,
    });
    expect(
      await runCli(
        ['qa-eval', '--predictions', 'run.jsonl', '--references', 'd.jsonl', '--out', 's.jsonl'],
        io,
      ),
    ).toBe(0);
    const scores = runRecords(join(cwd, 's.jsonl')).rows[0] as { rouge: { rougeL: { recall: number } } };
    expect(scores.rouge.rougeL.recall).toBe(1); // "1,204 responses": both tokens are in the answer, in order
  });
});
