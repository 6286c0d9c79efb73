import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FakeLlm } from './testing/index.js';

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

  it('runs: ingest → index → search → answer → grade → trec-eval → faithfulness → reports on the demo papers', async () => {
    const { runPipeline } = (await import(pathToFileURL(PROGRAM).href)) as {
      runPipeline(out: string, judge?: FakeLlm): Promise<Record<string, unknown>>;
    };
    // The faithfulness judge, scripted: every segment is one claim, supported without a quote
    // (so unverified, and counted unsupported), of harm 1. One reply fits all three judges' schemas.
    const judge = new FakeLlm(() =>
      JSON.stringify({
        claims: ['a claim'],
        verdict: 'supported',
        rationale: 'r',
        evidence_quote: null,
        harm: 1,
      }),
    );
    const result = await runPipeline(mkdtempSync(join(tmpdir(), 'citegeist-library-')), judge);
    // The demo ships 3 papers and 12 questions; each is answered and graded.
    expect(result).toMatchObject({ ingested: 3, answered: 12, graded: 12, top_hit: 'N18-3011' });
    expect(result.indexed).toBeGreaterThan(100);
    const measures = result.trec_eval as Record<string, number>;
    expect(Object.keys(measures).sort()).toEqual(['map', 'ndcg_cut_10', 'recall_10']);
    for (const value of Object.values(measures)) expect(value).toBeGreaterThan(0);
    // Every answer's claims were judged by the scripted judge: all scored, none failed.
    expect(judge.calls.length).toBeGreaterThan(0);
    expect(result.faithfulness).toMatchObject({ answers: 12, failed: 0 });
    // The demo bundles 3 report requests with nugget banks: each written, judged and scored.
    expect(result.reports).toEqual({ written: 3, judged: 3, scored_topics: 3 });
    const argue = result.argue as Record<string, number>;
    expect(Object.keys(argue).sort()).toEqual([
      'citation_support_macro',
      'f1_macro',
      'nugget_coverage_macro',
    ]);
    expect(argue.nugget_coverage_macro).toBeGreaterThan(0);
  }, 180_000);
});
