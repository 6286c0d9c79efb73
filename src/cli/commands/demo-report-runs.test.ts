import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { createProgram, runCli } from '../program.js';
import { runReportsDemo } from '../setup/demo-report-runs.js';

const assets = resolve(import.meta.dirname, '..', '..', '..', 'assets', 'demo');

describe('reports over the bundled demo papers', () => {
  it('writes reports over the bundled papers, judges them offline and prints the ARGUE table', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'demo-reports-'));
    const { io, stdout, stderr } = memoryIo({ cwd });
    const out = join(cwd, 'out');
    const corpus = join(out, 'corpus.sqlite');
    expect(await runCli(['ingest', join(assets, 'papers'), '--corpus', corpus], io)).toBe(0);
    expect(await runCli(['index', '--corpus', corpus], io)).toBe(0);
    const { ctx } = await createProgram(io);
    const steps: string[] = [];
    const files = await runReportsDemo(
      ctx,
      async (c, title, argv) => {
        steps.push(title);
        expect(await c.run(argv), `${title}\n${stderr()}`).toBe(0);
      },
      { assets, out, corpus },
    );
    expect(steps).toHaveLength(3);
    expect(stdout()).toMatch(/run citegeist-extractive-bm25: 3 topics/);
    expect(stdout()).toMatch(/sentence_support\s+1\.0000/);
    for (const f of [
      'reports-requests.jsonl',
      'reports-nuggets/nuggets_specter.v3.json',
      'reports-run.jsonl',
      'reports-judgments.jsonl',
      'reports-scores.tsv',
      'reports-scores.tsv.meta.json',
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    expect(files.map((l) => l.split(' ')[0])).toEqual([
      'reports-requests.jsonl',
      'reports-nuggets/',
      'reports-run.jsonl',
      'reports-judgments.jsonl',
      'reports-scores.tsv',
    ]);
    const tsv = readFileSync(join(out, 'reports-scores.tsv'), 'utf8');
    expect(tsv).toMatch(/^run_id\trequest_id\tmetric\tvalue\ncitegeist-extractive-bm25\tall\tsentences\t/);
    expect(tsv).toMatch(/\tall\tnuggets\t19\.0\n/);

    // The same corpus, reports written by a model (a fake OpenAI-compatible server): resumable.
    const requests = join(assets, 'reports', 'requests.jsonl');
    const server = await new FakeOpenAiServer({
      replies: () => ({
        text: '{"sentences": [{"text": "SPECTER starts from SciBERT.", "citations": [{"passage": 1, "confidence": 90}]}]}',
      }),
    }).start();
    try {
      const model = `openai-compatible:${server.url}/v1#writer`;
      const gen = [
        'reports',
        'generate',
        '--requests',
        requests,
        '--corpus',
        corpus,
        '--model',
        model,
        '--out',
        join(out, 'llm-run.jsonl'),
      ];
      const dry = memoryIo({ cwd });
      expect(await runCli([...gen, '--dry-run'], dry.io)).toBe(0);
      expect(dry.stdout()).toMatch(/writer: 3 calls, \d+ input \+ \d+ output tokens/);
      expect(server.requests).toHaveLength(0);
      expect(await runCli(gen, io)).toBe(0);
      expect(server.requests).toHaveLength(3);
      const lines = readFileSync(join(out, 'llm-run.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.metadata.topic_id)).toEqual(['specter', 'literature-graph', 'crows']);
      const [first] = lines[0].references as string[];
      expect(first).toMatch(/#\d+$/); // a passage of the corpus index
      expect(lines[0].responses[0].citations).toEqual({ [first!]: 90 });
      expect(await runCli(gen, io)).toBe(0); // resumed: nothing left to write
      expect(server.requests).toHaveLength(3);
      expect(
        await runCli(
          [
            'reports',
            'validate',
            join(out, 'llm-run.jsonl'),
            '--requests',
            requests,
            '--docs',
            corpus,
            '--ragtime',
          ],
          io,
        ),
      ).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
