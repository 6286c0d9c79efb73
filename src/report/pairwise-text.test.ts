import { describe, expect, it } from 'vitest';
import { type ItemScore, type MetricScores, pairwiseTable } from '../stats/index.js';
import { renderPairwiseTable } from './pairwise-text.js';

const ids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}`);
const scores = (f: (i: number) => ItemScore) => new Map(ids.map((id, i) => [id, f(i)]));

describe('renderPairwiseTable: the best group', () => {
  const systems = [
    { label: 'A', scores: scores((i) => (i % 3 ? 1 : 0.5)) },
    { label: 'B', scores: scores((i) => (i % 3 ? 1 : 0.5) + (i % 2 ? 0.01 : -0.012)) },
    { label: 'C', scores: scores(() => 0) },
    { label: 'E', scores: scores(() => 'failed') },
  ];
  const metric: MetricScores = { metric: 'm', higherIsBetter: true, systems };

  it('prints the systems not told apart from the best, and those not compared with it', () => {
    const table = pairwiseTable([metric], { test: 't', correction: 'none', alpha: 1e-6 });
    expect(table.groups[0]).toMatchObject({ best: 'A', indistinguishable: ['A', 'B'], notCompared: ['E'] });
    expect(renderPairwiseTable(table)).toContain(
      'best: A; not distinguishable from it: B; not compared (no p-value): E',
    );
  });

  it('says every compared system is worse, and still names those not compared', () => {
    const table = pairwiseTable([{ ...metric, systems: [systems[0]!, systems[2]!, systems[3]!] }], {
      test: 't',
    });
    expect(renderPairwiseTable(table)).toContain(
      'best: A; every compared system is significantly worse; not compared (no p-value): E',
    );
    const all = pairwiseTable([{ ...metric, systems: [systems[0]!, systems[2]!] }], { test: 't' });
    expect(renderPairwiseTable(all)).toContain('best: A; every other system is significantly worse');
  });
});
