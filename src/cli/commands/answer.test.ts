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
    const [manifest, ...run] = readFileSync(join(dir, 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row_id: string; error: string | null });
    expect(manifest).toMatchObject({
      citegeist_manifest: 1,
      kind: 'run',
      label: model,
      settings: { model, context: 'auto', k: 8, contract: true },
      inputs: {
        dataset: { path: 'd.jsonl', rows: 2 },
        papers: { source: 'papers:papers', count: 1, missing: 0 },
      },
    });
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
    const g = JSON.parse(readFileSync(join(dir, 'g.jsonl'), 'utf8').split('\n')[1] ?? '') as Record<
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

  it('--dry-run prices the very requests it would send, and calls or writes nothing', async () => {
    const dir = workspace();
    const { io, stdout } = memoryIo({ cwd: dir });
    const args = ['answer', '--dataset', 'd.jsonl', '--papers', 'papers', '--out', 'r.jsonl', '--dry-run'];
    expect(
      await runCli([...args, '--model', 'openai-compatible:http://127.0.0.1:9/v1#m', '--json'], io),
    ).toBe(0);
    const estimate = JSON.parse(stdout()) as Record<string, number>;
    // Two rows, each a full-paper prompt (system contract + question + paper) at 4 chars per token.
    expect(estimate).toMatchObject({ dry_run: true, rows: 2, calls: 2, outputTokens: 3000, missingPaper: 0 });
    expect(estimate.inputTokens).toBeGreaterThan(2 * 100);
    expect(existsSync(join(dir, 'r.jsonl'))).toBe(false);
    expect(existsSync(join(dir, '.citegeist'))).toBe(false);
    // A priced model, and no API key in the environment: the estimate needs none.
    const priced = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--model', 'openai:gpt-4.1-mini', '--json'], priced.io)).toBe(0);
    expect((JSON.parse(priced.stdout()) as { costUsd: number }).costUsd).toBeGreaterThan(0);
  });

  it('refuses to resume into a run made with other settings, and to write into a foreign file', async () => {
    const dir = workspace();
    const base = [
      'answer',
      '--dataset',
      'd.jsonl',
      '--papers',
      'papers',
      '--model',
      'extractive',
      '--out',
      'x.jsonl',
    ];
    expect(await runCli(base, memoryIo({ cwd: dir }).io)).toBe(0);
    const before = readFileSync(join(dir, 'x.jsonl'), 'utf8');
    const k3 = memoryIo({ cwd: dir });
    expect(await runCli([...base, '-k', '3'], k3.io)).toBe(1);
    expect(k3.stderr()).toMatch(
      /RUN_MANIFEST_MISMATCH[\s\S]*label: "extractive" in the file, "extractive \(k=3\)" now[\s\S]*k: 8 in the file, 3 now/,
    );
    expect(readFileSync(join(dir, 'x.jsonl'), 'utf8')).toBe(before);
    writeFileSync(
      join(dir, 'other.jsonl'),
      '{"row_id":"p1_chunk0_lookup","model":"someone-else","answer":"a"}\n',
    );
    const foreign = memoryIo({ cwd: dir });
    expect(await runCli([...base.slice(0, -1), 'other.jsonl'], foreign.io)).toBe(1);
    expect(foreign.stderr()).toMatch(/RUN_FILE_FOREIGN/);
    expect(readFileSync(join(dir, 'other.jsonl'), 'utf8')).toMatch(/someone-else/);
  });
});

describe('cache hits', () => {
  it('are marked per row, counted in the summary and left out of latency and cost', async () => {
    const dir = workspace();
    server = await new FakeOpenAiServer({
      replies: () => ({ text: `1,204 [^1].\n---EVIDENCE---\n@cite[1]\n"${SENTENCE}"\n---END-EVIDENCE---` }),
    }).start();
    const model = `openai-compatible:${server.url}/v1#test-model`;
    const base = ['answer', '--dataset', 'd.jsonl', '--papers', 'papers', '--model', model];
    expect(await runCli([...base, '--out', 'first.jsonl'], memoryIo({ cwd: dir }).io)).toBe(0);
    const again = memoryIo({ cwd: dir });
    expect(await runCli([...base, '--out', 'second.jsonl'], again.io)).toBe(0);
    expect(again.stdout()).toMatch(/answered 2 rows \(0 failed, 0 kept from an earlier run, 2 from cache\)/);
    expect(server.requests).toHaveLength(2);
    const rows = readFileSync(join(dir, 'second.jsonl'), 'utf8').trim().split('\n').slice(1);
    expect(rows.map((l) => (JSON.parse(l) as { cached: boolean }).cached)).toEqual([true, true]);
    const graded = memoryIo({ cwd: dir });
    const grade = [
      'grade',
      '--dataset',
      'd.jsonl',
      '--papers',
      'papers',
      '--run',
      'second.jsonl',
      '--out',
      'g.jsonl',
    ];
    expect(await runCli([...grade, '--json'], graded.io)).toBe(0);
    const summary = JSON.parse(graded.stdout()) as {
      models: {
        overall: { rows: number; cachedRows: number; latencySeconds: { n: number }; costUsd: null };
      }[];
    };
    expect(summary.models[0]?.overall).toMatchObject({
      rows: 2,
      cachedRows: 2,
      latencySeconds: { n: 0 },
      costUsd: null,
    });
  });
});
