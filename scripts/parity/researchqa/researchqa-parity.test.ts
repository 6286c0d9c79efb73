import { describe, expect, it } from 'vitest';
import { compareResearchqa, PAPERS_DIR, papersAvailable, reference } from './compare.js';

const available = papersAvailable();
if (!available) {
  console.warn(
    `ResearchQA parity test skipped: ${PAPERS_DIR} (QASPER dev papers, ../shared/data) not found.`,
  );
}

describe.skipIf(!available)(
  'ResearchQA parity with the published grader (1,005 held-out rows × 2 runs)',
  () => {
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
  },
);
