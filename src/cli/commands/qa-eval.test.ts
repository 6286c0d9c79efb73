import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RougeScorer } from '../../grade/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-qa-eval-'));
  const run = [
    { row_id: 'r1', model: 'qwen', answer: 'The models were trained on 1,204 survey responses.' },
    { row_id: 'r2', model: 'qwen', answer: '', error: 'HTTP 500' },
    { row_id: 'r3', model: 'qwen', answer: 'No idea.' },
    { row_id: 'stray', model: 'qwen', answer: 'not in the references' },
  ];
  writeFileSync(join(dir, 'run.jsonl'), run.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const refs = [
    { row_id: 'r1', references: ['1,204 survey responses were collected', 'survey responses from teachers'] },
    { row_id: 'r2', references: ['twelve percent'] },
    { row_id: 'r3', references: [] },
  ];
  writeFileSync(join(dir, 'refs.jsonl'), refs.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return dir;
}

describe('citegeist qa-eval', () => {
  it('writes per-row scores and a summary that says how they were made', async () => {
    const dir = workspace();
    const { io, stdout, stderr } = memoryIo({ cwd: dir });
    const code = await runCli(
      [
        'qa-eval',
        '--predictions',
        'run.jsonl',
        '--references',
        'refs.jsonl',
        '--metric',
        'rouge1,rougeL',
        '--stemmer',
        '--out',
        's.jsonl',
      ],
      io,
    );
    expect(code).toBe(1); // one prediction row is not in the references
    expect(stderr()).toMatch(/1 prediction row\(s\) are not in the references \(not scored\): stray/);
    const rows = readFileSync(join(dir, 's.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.row_id, r.status.rougeL])).toEqual([
      ['r1', 'scored'],
      ['r2', 'failed'],
      ['r3', 'not-applicable'],
    ]);
    const expected = new RougeScorer(['rouge1', 'rougeL'], { stemmer: true }).scoreMulti(
      ['1,204 survey responses were collected', 'survey responses from teachers'],
      'The models were trained on 1,204 survey responses.',
    );
    expect(rows[0].rouge).toEqual(expected);
    const summary = JSON.parse(readFileSync(join(dir, 's.summary.json'), 'utf8'));
    expect(summary.settings).toMatchObject({ metrics: ['rouge1', 'rougeL'], stemmer: true, bertscore: null });
    expect(summary.inputs.predictions.sha256).toMatch(/^[0-9a-f]{64}$/);
    const sha = (name: string) =>
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex');
    expect(summary.inputs.predictions.sha256).toBe(sha('run.jsonl'));
    expect(summary.inputs.references.sha256).toBe(sha('refs.jsonl'));
    expect(summary.inputs.references).toMatchObject({ format: 'references', rows: 3 });
    expect(summary.models[0].metrics[1]).toMatchObject({
      metric: 'rougeL',
      scored: 1,
      notApplicable: 1,
      failed: 1,
    });
    expect(stdout()).toMatch(/qwen\s+rougeL\s+1\s+0\.\d{4}/);
  });

  it('says that BERTScore needs a model, and refuses a folder that is not an encoder model', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir });
    const base = ['qa-eval', '--predictions', 'run.jsonl', '--references', 'refs.jsonl', '--out', 's.jsonl'];
    expect(await runCli([...base, '--metric', 'rougeL,bertscore'], io)).not.toBe(0);
    expect(stderr()).toMatch(/BERTScore needs an embedding model/);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'llama' }));
    expect(await runCli([...base, '--metric', 'bertscore', '--bertscore-model', '.'], io)).not.toBe(0);
    expect(stderr()).toMatch(/model_type "llama": not an encoder model/);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', _name_or_path: 'my-bert' }));
    expect(await runCli([...base, '--metric', 'bertscore', '--bertscore-model', '.'], io)).not.toBe(0);
    expect(stderr()).toMatch(/bert_score has no default layer for "my-bert"/);
  });

  it('refuses an unknown metric', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir });
    const args = [
      'qa-eval',
      '--predictions',
      'run.jsonl',
      '--references',
      'refs.jsonl',
      '--metric',
      'rouge0',
      '--out',
      's.jsonl',
    ];
    expect(await runCli(args, io)).not.toBe(0);
    expect(stderr()).toMatch(/rougen requires positive n: rouge0/);
  });
});
