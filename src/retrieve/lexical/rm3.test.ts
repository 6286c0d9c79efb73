import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25.js';
import { rm3Expand } from './rm3.js';

const docs = [
  { id: 'd0', text: 'apple banana' },
  { id: 'd1', text: 'apple cherry cherry' },
  { id: 'd2', text: 'durian' },
];
const analyzer = { stem: false, stopwords: false };

describe('rm3Expand', () => {
  it('mixes the query with the feedback documents’ term distribution (hand-computed)', () => {
    const index = Bm25Index.build(docs, { analyzer });
    const [h0, h1] = index.search('apple', 10);
    expect([h0?.id, h1?.id].sort()).toEqual(['d0', 'd1']);
    const s0 = index.search('apple', 10).find((h) => h.id === 'd0')?.score as number;
    const s1 = index.search('apple', 10).find((h) => h.id === 'd1')?.score as number;
    const w0 = s0 / (s0 + s1);
    const w1 = s1 / (s0 + s1);
    // P(t|R): apple ½·w0 + ⅓·w1, banana ½·w0, cherry ⅔·w1; keep the top 2, normalise, mix at λ = 0.5.
    const rel = { apple: w0 / 2 + w1 / 3, banana: w0 / 2, cherry: (2 * w1) / 3 };
    const top = Object.entries(rel)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2);
    const mass = top.reduce((s, [, w]) => s + w, 0);
    const expected = new Map<string, number>([['apple', 0.5]]);
    for (const [t, w] of top) expected.set(t, (expected.get(t) ?? 0) + (0.5 * w) / mass);
    const got = rm3Expand(index, 'apple', { fbDocs: 2, fbTerms: 2, originalWeight: 0.5 });
    const byTerm = Object.fromEntries([...got].map(([t, w]) => [index.term(t), w]));
    expect(Object.keys(byTerm).sort()).toEqual([...expected.keys()].sort());
    for (const [t, w] of expected) expect(byTerm[t]).toBeCloseTo(w, 12);
    // The expanded query now reaches d1 through "cherry" more strongly than d0.
    expect(index.searchTerms(got, 3)[0]?.id).toBe('d1');
  });

  it('returns the plain query when nothing matches or the query is empty', () => {
    const index = Bm25Index.build(docs, { analyzer });
    expect([...rm3Expand(index, 'zebra')]).toEqual([]);
    expect([...rm3Expand(index, 'durian durian')].map(([t, w]) => [index.term(t), w])).toEqual([
      ['durian', 1],
    ]);
  });
});
