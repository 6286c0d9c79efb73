import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { createProgram, runCli } from '../program.js';
import { runReportsDemo } from './demo-reports.js';

const assets = resolve(import.meta.dirname, '..', '..', '..', 'assets', 'demo');

describe("the demo's report-evaluation step", () => {
  it('writes reports over the bundled papers, judges them offline and prints the ARGUE table', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'demo-reports-'));
    const { io, stdout, stderr } = memoryIo({ cwd });
    const out = join(cwd, 'out');
    const corpus = join(out, 'corpus.sqlite');
    expect(await runCli(['ingest', join(assets, 'papers'), '--corpus', corpus], io)).toBe(0);
    expect(await runCli(['index', '--corpus', corpus], io)).toBe(0);
    const { ctx } = createProgram(io);
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
      'reports-run.jsonl',
      'reports-judgments.jsonl',
      'reports-scores.tsv',
      'reports-scores.tsv.meta.json',
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    expect(files.map((l) => l.split(' ')[0])).toEqual([
      'reports-run.jsonl',
      'reports-judgments.jsonl',
      'reports-scores.tsv',
    ]);
    const tsv = readFileSync(join(out, 'reports-scores.tsv'), 'utf8');
    expect(tsv).toMatch(/^run_id\trequest_id\tmetric\tvalue\ncitegeist-extractive-bm25\tall\tsentences\t/);
    expect(tsv).toMatch(/\tall\tnuggets\t19\.0\n/);
  }, 120_000);
});
