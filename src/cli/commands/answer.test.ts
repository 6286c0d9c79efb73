import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const SENTENCE = 'We collected 1,204 survey responses from teachers in three districts.';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-answer-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(
    join(dir, 'papers', 'p1.md'),
    `# Paper\n\n## Methods\n\n${SENTENCE}\n\n## Results\n\nCoaching raised self-efficacy by 12%.\n`,
  );
  const rows = [
    {
      row_id: 'p1_chunk0_lookup',
      paper_id: 'p1',
      question_type: 'lookup',
      question: 'How many survey responses were collected?',
      expected_references: [{ section_label: 'Methods', alternatives: [SENTENCE] }],
      metadata: { question_id: 'q1' },
    },
    {
      row_id: 'p1_chunk1_lookup',
      paper_id: 'p1',
      question_type: 'lookup',
      question: 'By how much did coaching raise self-efficacy?',
      metadata: { question_id: 'q2' },
    },
  ];
  writeFileSync(join(dir, 'd.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  return dir;
}

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('citegeist answer', () => {
  it('answers through an OpenAI-compatible server, records failures, resumes, writes QASPER predictions', async () => {
    const dir = workspace();
    let n = 0;
    server = await new FakeOpenAiServer({
      replies: () => {
        n++;
        if (n === 2) return { status: 400, message: 'context length exceeded' };
        return { text: `1,204 [^1].\n---EVIDENCE---\n@cite[1]\n"${SENTENCE}"\n---END-EVIDENCE---` };
      },
    }).start();
    const model = `openai-compatible:${server.url}/v1#test-model`;
    const args = [
      'answer',
      '--dataset',
      'd.jsonl',
      '--papers',
      'papers',
      '--model',
      model,
      '--out',
      'run.jsonl',
      '--concurrency',
      '1',
    ];
    const first = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--qasper-predictions', 'preds.jsonl'], first.io)).toBe(1);
    expect(first.stdout()).toMatch(/answered 2 rows \(1 failed/);
    expect(first.stderr()).toMatch(
      /answered: 2\/2 done, 1 failed, took \d+s, 2 model calls \(1 failed\), [1-9][\d,]* tokens\n/,
    );
    const second = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--qasper-predictions', 'preds.jsonl'], second.io)).toBe(0);
    expect(second.stdout()).toMatch(/answered 1 rows \(0 failed, 1 kept/);
    const run = readFileSync(join(dir, 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row_id: string; error: string | null });
    expect(run.map((r) => [r.row_id, r.error])).toEqual([
      ['p1_chunk0_lookup', null],
      ['p1_chunk1_lookup', null],
    ]);
    const preds = readFileSync(join(dir, 'preds.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(preds[0]).toEqual({
      question_id: 'q1',
      predicted_answer: '1,204.',
      predicted_evidence: [SENTENCE],
    });
  });

  it('runs the extractive baseline with no model at all, and grades it', async () => {
    const dir = workspace();
    const { io, stdout } = memoryIo({ cwd: dir });
    expect(
      await runCli(
        ['answer', '--dataset', 'd.jsonl', '--papers', 'papers', '--model', 'extractive', '--out', 'x.jsonl'],
        io,
      ),
    ).toBe(0);
    expect(stdout()).toMatch(/extractive: answered 2 rows \(0 failed/);
    expect(
      await runCli(
        ['grade', '--dataset', 'd.jsonl', '--papers', 'papers', '--run', 'x.jsonl', '--out', 'g.jsonl'],
        io,
      ),
    ).toBe(0);
    const g = JSON.parse(readFileSync(join(dir, 'g.jsonl'), 'utf8').split('\n')[0] ?? '') as Record<
      string,
      unknown
    >;
    expect(g).toMatchObject({
      row_id: 'p1_chunk0_lookup',
      model: 'extractive',
      citation_accuracy: 1,
      section_coverage: 1,
    });
  });

  it('asks for a model when none is given', async () => {
    const { io, stderr } = memoryIo({ cwd: workspace() });
    expect(
      await runCli(['answer', '--dataset', 'd.jsonl', '--papers', 'papers', '--out', 'r.jsonl'], io),
    ).toBe(1);
    expect(stderr()).toMatch(/No model was given[\s\S]*--model extractive/);
  });

  it('says --dry-run is not supported instead of calling a model', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir });
    const args = ['answer', '--dataset', 'd.jsonl', '--papers', 'papers', '--out', 'r.jsonl', '--dry-run'];
    expect(await runCli([...args, '--model', 'openai-compatible:http://127.0.0.1:9/v1#m'], io)).toBe(1);
    expect(stderr()).toMatch(/DRY_RUN_UNSUPPORTED[\s\S]*--dry-run is not supported[\s\S]*--budget/);
    expect(existsSync(join(dir, 'r.jsonl'))).toBe(false);
  });
});
