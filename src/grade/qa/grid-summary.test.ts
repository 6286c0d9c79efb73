import { describe, expect, it } from 'vitest';
import { summarizeGrid } from './grid-summary.js';
import type { QaScoreRow } from './score-answers.js';

const row = (id: string, f: number | null, status: 'scored' | 'failed' = 'scored'): QaScoreRow => ({
  row_id: id,
  model: 'm',
  n_references: 1,
  status: { rougeL: f === null ? 'not-applicable' : status },
  ...(f === null || status !== 'scored'
    ? {}
    : { rouge: { rougeL: { precision: f, recall: f, fmeasure: f } } }),
});

describe('summarizeGrid', () => {
  it('tests each retriever against the baseline on the questions both scored', () => {
    const cells = [
      { mode: 'dense', model: 'm', rows: [row('a', 0.2), row('b', 0.4), row('c', 0.6), row('d', 0.9)] },
      {
        mode: 'bm25',
        model: 'm',
        rows: [row('a', 0.3), row('b', 0.5), row('c', 0.6), row('d', 0, 'failed'), row('e', null)],
      },
    ];
    const [dense, bm25] = summarizeGrid(cells, ['rougeL'], { baselineMode: 'dense', iterations: 1000 });
    expect(dense).toMatchObject({ baseline: true, stats: [{ n: 4, delta: null, p: null, paired: 0 }] });
    expect(dense!.stats[0]!.mean).toBeCloseTo(0.525, 12);
    const s = bm25!.stats[0]!;
    expect(s).toMatchObject({ n: 3, paired: 3 });
    expect(s.mean).toBeCloseTo(1.4 / 3, 12);
    // Differences (0.1, 0.1, 0): mean 1/15; exact sign flips: 4 of 8 patterns reach |mean| ≥ 1/15.
    expect(s.delta).toBeCloseTo(0.2 / 3, 12);
    expect(s.p).toBe(0.5);
  });
});
