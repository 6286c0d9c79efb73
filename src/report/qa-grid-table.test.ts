import { describe, expect, it } from 'vitest';
import type { GridBest, GridRow } from '../grade/index.js';
import { renderGrid } from './qa-grid-table.js';

const row = (model: string, mean: number): GridRow => ({
  model,
  mode: 'dense',
  baseline: false,
  stats: [{ metric: 'rougeL', n: 3, mean, lower: mean, upper: mean, delta: null, p: null, paired: 0 }],
});

describe('renderGrid', () => {
  it('marks the best ▲, those not significantly worse ≈, and a cell not compared with the best ?', () => {
    const best: GridBest[] = [
      {
        metric: 'rougeL',
        best: 'a · dense',
        notWorse: ['a · dense', 'd · dense'],
        notCompared: ['c · dense'],
      },
    ];
    const text = renderGrid([row('a', 0.5), row('b', 0.3), row('c', 0.4), row('d', 0.45)], ['rougeL'], best);
    expect(text).toMatch(/0\.5000 \[0\.5000, 0\.5000\] ▲/);
    expect(text).toMatch(/0\.4500 \[0\.4500, 0\.4500\] ≈/);
    expect(text).toMatch(/0\.4000 \[0\.4000, 0\.4000\] \?/);
    // b was compared and is significantly worse: no mark.
    expect(text).toMatch(/0\.3000 \[0\.3000, 0\.3000\](?! [▲≈?])/);
    expect(text).toContain('? not compared with the best (no question both scored)');
    const all = renderGrid([row('a', 0.5), row('b', 0.3)], ['rougeL'], [{ ...best[0]!, notCompared: [] }]);
    expect(all).not.toContain('not compared');
  });
});
