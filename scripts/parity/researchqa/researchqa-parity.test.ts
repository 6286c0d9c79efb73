import { beforeEach, describe, expect, it } from 'vitest';
import { compareResearchqa, papersAvailable, reference } from './compare.js';

describe('ResearchQA parity with the published grader (1,005 held-out rows × 2 runs)', () => {
  // Every QASPER dev paper the held-out rows cite, read from ../shared/data (the repository
  // bundles only a few of them).
  beforeEach((ctx) => {
    if (!papersAvailable())
      ctx.skip('needs ../shared/data/qasper-dev/papers (large shared data, not bundled; present in CI)');
  });
  it('grades every layout to the published per-row values and means, exactly', async () => {
    const results = await compareResearchqa();
    expect(results.map((r) => r.layout)).toEqual([
      'eval_dataset.json',
      'hub export (JSONL)',
      'hub export (Parquet)',
      'earlier flat list',
    ]);
    for (const r of results) {
      expect([r.layout, r.rows, r.values, r.means]).toEqual([r.layout, 2010, 8040, 40]);
      expect([r.layout, r.mismatches]).toEqual([r.layout, []]);
      expect([r.layout, r.meanMismatches]).toEqual([r.layout, []]);
    }
  }, 120_000);

  it('exercises the argument order: swapping it changes rows of both runs', () => {
    const changed = reference().swapped_order_rows_changed;
    expect(changed.extractive).toBeGreaterThan(0);
    expect(changed.perturbed).toBeGreaterThan(0);
  });
});
