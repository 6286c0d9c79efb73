import { describe, expect, it } from 'vitest';
import { AnnIndex } from './ann-index.js';
import { type Blas, blasTopK, loadBlas } from './blas-scan.js';
import { DenseIndex } from './dense-index.js';
import { ExactIndex, normalizeRows } from './exact-index.js';
import { loadUsearch } from './usearch-scan.js';

function randomMatrix(n: number, d: number, seed: number): Float32Array {
  let s = seed;
  const rand = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  };
  return normalizeRows(Float32Array.from({ length: n * d }, rand), d);
}

describe('ExactIndex', () => {
  const d = 16;
  const data = randomMatrix(300, d, 7);
  const queries = Array.from({ length: 6 }, (_, i) => randomMatrix(1, d, 100 + i));

  const blas = loadBlas();
  const kernels = [
    ...(blas ? (['blas'] as const) : []),
    ...(loadUsearch() ? (['native'] as const) : []),
    'js',
  ] as const;
  it.each(kernels)(
    '%s kernel returns exactly the naive top-k (blocked queries incl. a partial block)',
    (kernel) => {
      const index = new ExactIndex(data, d, kernel);
      const got = index.search(queries, 5);
      queries.forEach((q, i) => {
        const naive = index.searchNaive(q, 5);
        expect(got[i]?.map((h) => h.index)).toEqual(naive.map((h) => h.index));
        got[i]?.forEach((h, j) => {
          expect(h.score).toBeCloseTo(naive[j]?.score as number, 5);
        });
      });
    },
  );

  it.each(kernels)(
    '%s kernel with skipped rows returns the top k of the live rows, as an index of them alone',
    (kernel) => {
      // Runs of skipped rows (a paper's rows are contiguous), some crossing a 512-row block.
      const skip = new Uint8Array(300);
      for (const [from, to] of [
        [0, 3],
        [40, 90],
        [150, 151],
        [200, 260],
        [299, 300],
      ] as const)
        skip.fill(1, from, to);
      const liveRows = [...skip.keys()].filter((r) => !skip[r]);
      const live = new Float32Array(liveRows.length * d);
      liveRows.forEach((r, at) => {
        live.set(data.subarray(r * d, (r + 1) * d), at * d);
      });
      const got = new ExactIndex(data, d, kernel).search(queries, 7, skip);
      const want = new ExactIndex(live, d, kernel).search(queries, 7);
      queries.forEach((_, i) => {
        expect(got[i]?.map((h) => h.index)).toEqual(want[i]?.map((h) => liveRows[h.index]));
        expect(got[i]?.map((h) => h.score)).toEqual(want[i]?.map((h) => h.score));
      });
      // Everything skipped: nothing returned.
      expect(new ExactIndex(data, d, kernel).search(queries, 7, new Uint8Array(300).fill(1))).toEqual(
        queries.map(() => []),
      );
    },
  );

  it.skipIf(!blas)('blas kernel: one query (sgemv) and many row blocks give the naive top-k', () => {
    const index = new ExactIndex(data, d, 'js');
    const one = blasTopK(blas as Blas, data, d, [queries[0] as Float32Array], 7);
    expect(one[0]?.map((h) => h.index)).toEqual(
      index.searchNaive(queries[0] as Float32Array, 7).map((h) => h.index),
    );
    // 6 queries × 37 rows per block: 9 blocks, the last one partial.
    const blocked = blasTopK(blas as Blas, data, d, queries, 5, 6 * 37);
    expect(blocked.map((hits) => hits.map((h) => h.index))).toEqual(
      queries.map((q) => index.searchNaive(q, 5).map((h) => h.index)),
    );
  });
  if (!blas)
    it.skip('blas kernel: OpenBLAS is not installed here (apt-get install libopenblas0-pthread)', () => {});

  it('handles k larger than the index, k = 0 and an empty index; refuses a wrong dimension', () => {
    const small = new ExactIndex(randomMatrix(3, d, 1), d, 'js');
    expect(small.search([queries[0] as Float32Array], 10)[0]).toHaveLength(3);
    expect(small.search([queries[0] as Float32Array], 0)).toEqual([[]]);
    expect(new ExactIndex(new Float32Array(0), d).search([queries[0] as Float32Array], 3)).toEqual([[]]);
    expect(() => small.search([new Float32Array(3)], 1)).toThrow(/3-d query was sent to a 16-d index/);
    expect(() => new ExactIndex(new Float32Array(5), 2)).toThrow(/not a whole number/);
  });
});

describe('AnnIndex', () => {
  it('finds (almost) the exact neighbours on a small set', () => {
    const d = 16;
    const data = randomMatrix(500, d, 3);
    const exact = new ExactIndex(data, d, 'js');
    const ann = new AnnIndex(data, d);
    const queries = Array.from({ length: 20 }, (_, i) => randomMatrix(1, d, 50 + i));
    const e = exact.search(queries, 10);
    const a = ann.search(queries, 10);
    let found = 0;
    e.forEach((hits, i) => {
      const got = new Set(a[i]?.map((h) => h.index));
      found += hits.filter((h) => got.has(h.index)).length;
    });
    expect(found / 200).toBeGreaterThan(0.9);
  });
});

describe('DenseIndex', () => {
  const ids = ['a#0', 'a#1', 'b#0'];
  const vectors = [Float32Array.from([1, 0, 0]), Float32Array.from([0, 2, 0]), Float32Array.from([1, 1, 0])];

  it('normalises, searches by cosine and round-trips with its embedder id', () => {
    const index = DenseIndex.fromVectors('fake:e1', ids, vectors);
    expect(index.kind).toBe('exact');
    const [hits] = index.search([Float32Array.from([0, 3, 0])], 2);
    expect(hits?.map((h) => h.id)).toEqual(['a#1', 'b#0']);
    expect(hits?.[0]?.score).toBeCloseTo(1, 6);
    const loaded = DenseIndex.fromBuffer(index.toBuffer(), { id: 'fake:e1', dimensions: 3 });
    expect(loaded.search([Float32Array.from([1, 0, 0])], 3)).toEqual(
      index.search([Float32Array.from([1, 0, 0])], 3),
    );
  });

  it.each([
    [
      { id: 'fake:e2', dimensions: 3 },
      /built with embedder "fake:e1" \(3-d\); the configured one is "fake:e2" \(3-d\)/,
    ],
    [{ id: 'fake:e1', dimensions: 4 }, /configured one is "fake:e1" \(4-d\)/],
  ])('refuses a mismatching embedder %j', (expected, message) => {
    const buf = DenseIndex.fromVectors('fake:e1', ids, vectors).toBuffer();
    expect(() => DenseIndex.fromBuffer(buf, expected, 'idx')).toThrow(message);
    expect(() => DenseIndex.fromBuffer(buf, expected, 'idx')).toThrow(
      expect.objectContaining({ code: 'INDEX_EMBEDDER_MISMATCH' }),
    );
  });

  it('uses the ANN index when asked', () => {
    expect(DenseIndex.fromVectors('x', ids, vectors, 'ann').kind).toBe('ann');
  });
});
