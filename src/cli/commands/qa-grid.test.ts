import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FREE_TEXT_PROMPT } from '../../answer/index.js';
import { FakeOpenAiServer, runRecords } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const PAPERS: Record<string, string> = {
  a: '# Coaching teachers\n\n## Methods\n\nWe collected 1,204 survey responses from teachers in three districts.\n\n## Results\n\nTeachers who received coaching reported a 12% increase in self-efficacy.\n',
  b: '# Solar cells\n\n## Methods\n\nThe perovskite films were annealed at 100 degrees for ten minutes.\n\n## Results\n\nThe best cell reached a power conversion efficiency of 21.3 percent.\n',
  c: '# Parsing\n\n## Methods\n\nWe trained a dependency parser on the Penn Treebank with a biaffine classifier.\n\n## Results\n\nThe parser reached 95.7 labelled attachment score on the test set.\n',
};
const ROWS = [
  [
    'a',
    'q1',
    'How many survey responses were collected from teachers?',
    '1,204 survey responses from teachers',
  ],
  ['a', 'q2', 'What increase in self-efficacy did coaching give?', 'a 12% increase in self-efficacy'],
  ['b', 'q3', 'At what temperature were the perovskite films annealed?', 'annealed at 100 degrees'],
  ['b', 'q4', 'What power conversion efficiency did the best cell reach?', '21.3 percent'],
  ['c', 'q5', 'What labelled attachment score did the parser reach?', '95.7 LAS'],
  ['c', 'q6', 'Which treebank was the parser trained on?', ''],
];

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function corpusWorkspace(): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'citegeist-qa-grid-'));
  for (const [id, text] of Object.entries(PAPERS)) writeFileSync(join(cwd, `${id}.md`), text);
  const dataset = ROWS.map(([paper, q, question, answer]) =>
    JSON.stringify({
      row_id: `${paper}_${q}`,
      paper_id: paper,
      question_type: 'lookup',
      question,
      expected_answer: answer,
    }),
  );
  writeFileSync(join(cwd, 'dataset.jsonl'), `${dataset.join('\n')}\n`);
  expect((await run(cwd, ['ingest', 'a.md', 'b.md', 'c.md'])).code).toBe(0);
  expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).code).toBe(0);
  return cwd;
}

describe('citegeist qa-grid', () => {
  it("runs an LLM generator with the free-text prompt over each retriever's context", async () => {
    const cwd = await corpusWorkspace();
    server = await new FakeOpenAiServer({ replies: () => ({ text: ' 1,204 survey responses. ' }) }).start();
    const model = `openai-compatible:${server.url}/v1#tiny`;
    const r = await run(cwd, [
      'qa-grid',
      '--dataset',
      'dataset.jsonl',
      '--modes',
      'bm25,dense',
      '--models',
      `extractive,${model}`,
      '-k',
      '2',
      '--no-cache',
      '--concurrency',
      '2',
      '--out-dir',
      'grid',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(server.requests).toHaveLength(12); // 6 questions × 2 retrievers
    expect(server.requests[0]!.messages[0]).toEqual({ role: 'system', content: FREE_TEXT_PROMPT });
    expect(server.requests[0]!.messages[1]!.content).toMatch(
      /^Context:\n<<<CONTEXT\n\[1\] .+\n[\s\S]*\[2\] /,
    );
    expect(r.out).toMatch(new RegExp(`${model.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+bm25\\s+5`));
    const cell = runRecords(join(cwd, 'grid', `bm25__${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`));
    expect(cell.manifest).toMatchObject({ kind: 'run', settings: { free_text: true } });
    expect(cell.rows[0]).toMatchObject({
      answer: '1,204 survey responses.',
      contract: false,
    });
  });

  it('answers with each retriever over the whole corpus, scores, and tests against the baseline', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-qa-grid-'));
    for (const [id, text] of Object.entries(PAPERS)) writeFileSync(join(cwd, `${id}.md`), text);
    const dataset = ROWS.map(([paper, q, question, answer]) =>
      JSON.stringify({
        row_id: `${paper}_${q}`,
        paper_id: paper,
        question_type: 'lookup',
        question,
        expected_answer: answer,
      }),
    );
    writeFileSync(join(cwd, 'dataset.jsonl'), `${dataset.join('\n')}\n`);
    expect((await run(cwd, ['ingest', 'a.md', 'b.md', 'c.md'])).code).toBe(0);
    expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).code).toBe(0);

    const args = [
      'qa-grid',
      '--dataset',
      'dataset.jsonl',
      '--modes',
      'bm25,dense,reciper',
      '-k',
      '2',
      '--out-dir',
      'grid',
    ];
    const first = await run(cwd, args);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toMatch(/reciper: skipped — No recipes are stored/);
    expect(first.err).toMatch(/bm25 × extractive: 6 answered, 0 kept, 0 failed/);
    expect(first.out).toMatch(
      /extractive\s+bm25\s+5\s+\d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\]( [▲≈])?\s+[+-]\d\.\d{4}\s+\d\.\d{3}/,
    );
    expect(first.out).toMatch(/extractive\s+dense \(baseline\)\s+5\s+\d\.\d{4}/);

    const run1 = runRecords(join(cwd, 'grid', 'bm25__extractive.jsonl')).rows as Record<string, string>[];
    expect(run1[0]).toMatchObject({ row_id: 'a_q1', contract: false, citations: [] });
    expect(run1[0]!.answer).toBe('We collected 1,204 survey responses from teachers in three districts.');
    const summary = JSON.parse(readFileSync(join(cwd, 'grid', 'grid.summary.json'), 'utf8'));
    expect(summary.settings).toMatchObject({ baseline_mode: 'dense', k: 2, metrics: ['rougeL'] });
    expect(summary.inputs.index.embedder).toBe('hashed:64');
    expect(summary.skipped.map((s: { mode: string }) => s.mode)).toEqual(['reciper']);
    const bm25 = summary.grid.find((g: { mode: string }) => g.mode === 'bm25');
    expect(bm25.stats[0]).toMatchObject({ metric: 'rougeL', n: 5, paired: 5 });
    expect(bm25.stats[0].p).toBeGreaterThan(0);
    // The best cell per metric and those not significantly worse, marked ▲ and ≈ in the table.
    expect(summary.best).toEqual([
      {
        metric: 'rougeL',
        best: summary.best[0].best,
        notWorse: expect.arrayContaining([summary.best[0].best]),
        // Both cells answered the same questions: each was compared with the best.
        notCompared: [],
      },
    ]);
    expect(summary.pairwise).toMatchObject({ test: 'randomization', correction: 'holm', comparisons: 1 });
    expect(first.out).toMatch(/ ▲ /);
    expect(first.out).toMatch(/▲ best cell of the metric; ≈ not significantly worse/);

    const again = await run(cwd, args);
    expect(again.err).toMatch(/bm25 × extractive: 0 answered, 6 kept, 0 failed/);
    expect(again.out).toBe(first.out);
  });

  it('--dry-run prices the whole grid from the very prompts, writes nothing, and needs no key', async () => {
    const cwd = await corpusWorkspace();
    server = await new FakeOpenAiServer({ replies: () => ({ text: ' 1,204 survey responses. ' }) }).start();
    const model = `openai-compatible:${server.url}/v1#tiny`;
    const args = (models: string) => [
      'qa-grid',
      '--dataset',
      'dataset.jsonl',
      '--modes',
      'bm25,dense,reciper',
      '--models',
      models,
      '-k',
      '2',
      '--no-cache',
      '--out-dir',
      'grid',
    ];
    const priced = await run(cwd, [
      ...args(`extractive,${model},openai:gpt-4.1-mini`),
      '--dry-run',
      '--json',
    ]);
    expect(priced.code, priced.err).toBe(0);
    expect(priced.err).toMatch(/reciper: skipped — No recipes are stored/);
    const estimate = JSON.parse(priced.out);
    expect(estimate.cells.map((c: { mode: string; model: string }) => `${c.mode} × ${c.model}`)).toEqual([
      'bm25 × extractive',
      `bm25 × ${model}`,
      'bm25 × openai:gpt-4.1-mini',
      'dense × extractive',
      `dense × ${model}`,
      'dense × openai:gpt-4.1-mini',
    ]);
    expect(estimate.cells[0]).toMatchObject({ rows: 6, kept: 0, calls: 0, callsModel: false });
    expect(estimate.cells[2]).toMatchObject({ rows: 6, calls: 6, outputTokens: 6 * 1500 });
    expect(estimate.cells[2].costUsd).toBeGreaterThan(0);
    expect(estimate.cells[1].costUsd).toBeNull(); // a local server has no price
    expect(estimate.totals).toMatchObject({ rows: 36, calls: 24, outputTokens: 24 * 1500, costUsd: null });
    expect(estimate.skipped.map((s: { mode: string }) => s.mode)).toEqual(['reciper']);
    expect(existsSync(join(cwd, 'grid'))).toBe(false);
    expect(server.requests).toHaveLength(0);

    const table = await run(cwd, [...args(`extractive,${model}`), '--dry-run']);
    expect(table.out).toMatch(
      /^dry run, nothing called or written: 6 questions × 2 retriever\(s\) × 2 generator\(s\)\n/,
    );
    expect(table.out).toMatch(/\nextractive\s+bm25\s+6\s+0\s+0\s+0\s+0\s+no model\n/);
    expect(table.out).toMatch(/\ntotal\s+24\s+0\s+12\s+\d+\s+18000\s+no price\n/);
    expect(table.out).toMatch(/^skipped reciper: No recipes are stored/m);

    // The estimate's input tokens are those of the prompts the run then sends.
    expect((await run(cwd, args(`extractive,${model}`))).code).toBe(0);
    const sent = server.requests.reduce(
      (sum, r) => sum + Math.ceil(r.messages.reduce((n, m) => n + m.content.length, 0) / 4),
      0,
    );
    expect(sent).toBe(estimate.cells[1].inputTokens + estimate.cells[4].inputTokens);
    const resumed = JSON.parse((await run(cwd, [...args(`extractive,${model}`), '--dry-run', '--json'])).out);
    expect(resumed.totals).toMatchObject({ rows: 0, kept: 24, calls: 0, costUsd: null });
  });

  it('runs a RECIPER cell once recipes are extracted, and records which recipes it used', async () => {
    const cwd = await corpusWorkspace();
    const recipe = JSON.stringify({
      material_name: 'm',
      synthesis_method: 's',
      steps: [{ description: 'Mix.' }],
      key_points: ['k'],
    });
    server = await new FakeOpenAiServer({ replies: () => ({ text: recipe }) }).start();
    const model = `openai-compatible:${server.url}/v1#tiny`;
    expect((await run(cwd, ['recipes', 'extract', '--model', model, '--no-cache'])).code).toBe(0);
    const args = [
      'qa-grid',
      '--dataset',
      'dataset.jsonl',
      '--modes',
      'dense,reciper',
      '-k',
      '2',
      '--out-dir',
      'grid',
    ];
    const r = await run(cwd, args);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/reciper × extractive: 6 answered/);
    const summary = JSON.parse(readFileSync(join(cwd, 'grid', 'grid.summary.json'), 'utf8'));
    expect(summary.inputs.index.recipes).toEqual({
      file: '.citegeist/index/recipes.jsonl',
      model,
      run_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      recipes: 3,
      left_out_stale: 0,
    });
  });

  it('refuses a baseline that is not among the retrievers', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-qa-grid-'));
    writeFileSync(join(cwd, 'dataset.jsonl'), '');
    const r = await run(cwd, ['qa-grid', '--dataset', 'dataset.jsonl', '--modes', 'bm25', '--out-dir', 'g']);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/baseline retriever dense is not among --modes bm25/);
  });
});
