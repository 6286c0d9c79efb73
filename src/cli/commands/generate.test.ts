import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const M1 = 'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.';
const reply = JSON.stringify({
  chunks: [
    {
      section_label: 'Methods',
      lookup: {
        question: 'How many responses?',
        expected_answer: '1,204',
        evidence: [{ section_label: 'Methods', alternatives: [M1] }],
      },
      comprehension: {
        question: 'What was collected?',
        expected_answer: 'Survey responses.',
        evidence: [{ section_label: 'Methods', alternatives: [M1] }],
        rubric: ['a', 'b', 'c'],
      },
    },
  ],
  multi_hop: [],
  adversarial: [],
});

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('citegeist generate questions', () => {
  it('generates verified rows through an OpenAI-compatible server', async () => {
    server = await new FakeOpenAiServer({ replies: () => ({ text: reply }) }).start();
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-generate-'));
    mkdirSync(join(dir, 'papers'));
    writeFileSync(join(dir, 'papers', 'p1.md'), `# P\n\n## Methods\n\n${M1}\n`);
    const { io, stdout } = memoryIo({ cwd: dir });
    const args = [
      'generate',
      'questions',
      '--papers',
      'papers',
      '--domain',
      'education',
      '--model',
      `openai-compatible:${server.url}/v1#gen`,
      '--out',
      'd.jsonl',
    ];
    expect(await runCli(args, io)).toBe(0);
    expect(stdout()).toMatch(/2 rows from 1 paper\(s\)/);
    const rows = readFileSync(join(dir, 'd.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row_id: string; domain: string });
    expect(rows.map((r) => [r.row_id, r.domain])).toEqual([
      ['p1_chunk0_lookup', 'education'],
      ['p1_chunk0_comprehension', 'education'],
    ]);
  });

  it('says it needs a model', async () => {
    const { io, stderr } = memoryIo();
    expect(await runCli(['generate', 'questions', '--papers', '.', '--out', 'd.jsonl'], io)).toBe(1);
    expect(stderr()).toMatch(/Dataset generation needs an LLM/);
  });
});

describe('generate questions --dry-run', () => {
  it('prices the first call of each paper and calls or writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-generate-'));
    mkdirSync(join(dir, 'papers'));
    writeFileSync(join(dir, 'papers', 'p1.md'), `# Paper\n\n## Methods\n\n${M1}\n`);
    writeFileSync(join(dir, 'papers', 'p2.md'), `# Other\n\n## Methods\n\n${M1}\n`);
    const { io, stdout } = memoryIo({ cwd: dir });
    const argv = ['generate', 'questions', '--papers', 'papers', '--out', 'd.jsonl', '--dry-run', '--json'];
    expect(await runCli([...argv, '--model', 'openai-compatible:http://127.0.0.1:9/v1#m'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ dry_run: true, papers: 2, calls: 2, outputTokens: 16000 });
    expect(() => readFileSync(join(dir, 'd.jsonl'))).toThrow();
    expect(() => readFileSync(join(dir, 'd.jsonl.papers.jsonl'))).toThrow();
    const priced = memoryIo({ cwd: dir });
    expect(await runCli([...argv, '--model', 'openai:gpt-4.1-mini'], priced.io)).toBe(0);
    expect((JSON.parse(priced.stdout()) as { costUsd: number }).costUsd).toBeGreaterThan(0);
  });
});
