import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PROGRAM = join(ROOT, 'examples', 'library-pipeline.ts');

/** The ```ts block of docs/library.md that shows the program. */
function programInGuide(): string {
  const guide = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
  const blocks = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

describe('docs/library.md: the pipeline through the public API', () => {
  it('shows examples/library-pipeline.ts verbatim', () => {
    expect(programInGuide()).toBe(readFileSync(PROGRAM, 'utf8'));
  });

  it('runs: ingest → index → search → answer → grade → trec-eval on the demo papers', async () => {
    const { runPipeline } = (await import(pathToFileURL(PROGRAM).href)) as {
      runPipeline(out: string): Promise<Record<string, unknown>>;
    };
    const result = await runPipeline(mkdtempSync(join(tmpdir(), 'citegeist-library-')));
    // The demo ships 3 papers and 12 questions; each is answered and graded.
    expect(result).toMatchObject({ ingested: 3, answered: 12, graded: 12, top_hit: 'N18-3011' });
    expect(result.indexed).toBeGreaterThan(100);
    const measures = result.trec_eval as Record<string, number>;
    expect(Object.keys(measures).sort()).toEqual(['map', 'ndcg_cut_10', 'recall_10']);
    for (const value of Object.values(measures)) expect(value).toBeGreaterThan(0);
  }, 180_000);
});
