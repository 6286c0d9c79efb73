import { describe, expect, it } from 'vitest';
import { scoredPassage } from '../common/index.js';
import { naiveFusion, rrfFusion, weightedFusion } from './fusion.js';

const a = [scoredPassage('x#0', 0.9), scoredPassage('y#0', 0.5), scoredPassage('z#0', 0.1)];
const b = [scoredPassage('y#0', 12), scoredPassage('w#0', 3)];

describe('fusion', () => {
  it('naive: union keeping the highest raw score', () => {
    expect(naiveFusion([a, b]).map((p) => [p.id, p.score])).toEqual([
      ['y#0', 12],
      ['w#0', 3],
      ['x#0', 0.9],
      ['z#0', 0.1],
    ]);
  });

  it('rrf: Σ 1/(60 + rank), hand-computed', () => {
    const fused = rrfFusion([a, b]);
    expect(fused[0]?.id).toBe('y#0');
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused.find((p) => p.id === 'x#0')?.score).toBeCloseTo(1 / 61, 12);
    expect(fused.find((p) => p.id === 'w#0')?.score).toBeCloseTo(1 / 62, 12);
    const weighted = rrfFusion([a, b], { k: 10, weights: [0.65, 0.35] });
    expect(weighted.find((p) => p.id === 'y#0')?.score).toBeCloseTo(0.65 / 12 + 0.35 / 11, 12);
  });

  it('weighted: min-max normalised scores times weights', () => {
    const fused = weightedFusion([a, b], [0.5, 2]);
    expect(fused.map((p) => p.id)).toEqual(['y#0', 'x#0', 'w#0', 'z#0']); // w and z tie at 0: by id
    expect(fused[0]?.score).toBeCloseTo(0.5 * (0.4 / 0.8) + 2, 12);
    expect(weightedFusion([[scoredPassage('q#1', 5)]], [1])[0]?.score).toBe(1);
    expect(naiveFusion([])).toEqual([]);
  });
});
