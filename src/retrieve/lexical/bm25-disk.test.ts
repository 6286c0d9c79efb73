import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANALYZER } from './analyzer.js';
import { Bm25Index } from './bm25.js';
import { Bm25DiskIndex } from './bm25-disk.js';
import { Bm25SegmentWriter } from './bm25-segments.js';

const root = mkdtempSync(join(tmpdir(), 'cg-bm25disk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Writes `texts` as an on-disk index (tiny segments, so the merge runs) and opens it. */
function diskIndex(texts: readonly string[], segmentPostings: number): Bm25DiskIndex {
  const dir = join(root, `i${n++}`);
  mkdirSync(dir);
  const w = new Bm25SegmentWriter(dir, DEFAULT_ANALYZER, segmentPostings);
  for (const t of texts) w.add(t);
  w.finish({ k1: 0.9, b: 0.4 });
  return Bm25DiskIndex.open(dir, (row) => `d${row}#0`);
}

// A small vocabulary so that terms repeat, tie and skew like real text.
const WORDS = [
  'graph',
  'neural',
  'network',
  'protein',
  'fold',
  'cell',
  'model',
  'train',
  'data',
  'loss',
  'zeta',
  'alpha',
];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 30 }).map((w) => w.join(' '));

describe('BM25 on disk (segments merged on disk, MaxScore top-k)', () => {
  it('ranks exactly as exhaustive scoring and as the in-memory index, on random corpora', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 60 }),
        fc.array(fc.constantFrom(...WORDS, 'unknownword'), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 5, max: 200 }),
        (texts, queryWords, k, segmentPostings) => {
          const disk = diskIndex(texts, segmentPostings);
          const memory = Bm25Index.build(texts.map((t, i) => ({ id: `d${i}#0`, text: t })));
          const query = queryWords.join(' ');
          const pruned = disk.search(query, k);
          expect(pruned).toEqual(disk.searchExhaustive(query, k));
          expect(pruned).toEqual(memory.search(query, k));
          disk.close();
        },
      ),
      { numRuns: 150, seed: 30 },
    );
  });

  it('bounds impacts whatever k1 and b a reader overrides, and stays exact', () => {
    const texts = Array.from({ length: 300 }, (_, i) =>
      WORDS.filter((_, j) => (i * 7 + j * 3) % (j + 2) === 0).join(' '),
    );
    const dir = join(root, 'params');
    mkdirSync(dir);
    const w = new Bm25SegmentWriter(dir, DEFAULT_ANALYZER, 97);
    for (const t of texts) w.add(t);
    w.finish({ k1: 0.9, b: 0.4 });
    const disk = Bm25DiskIndex.open(dir, (row) => `d${row}#0`, { k1: 1.5, b: 0.9 });
    const memory = Bm25Index.fromBuffer(
      Bm25Index.build(texts.map((t, i) => ({ id: `d${i}#0`, text: t }))).toBuffer(),
      { k1: 1.5, b: 0.9 },
    );
    for (const q of ['graph model', 'zeta alpha alpha', 'protein fold cell data loss']) {
      expect(disk.search(q, 10)).toEqual(memory.search(q, 10));
    }
  });

  it('finds nothing for an empty index or a query of unknown words', () => {
    const disk = diskIndex([''], 10);
    expect(disk.search('graph', 5)).toEqual([]);
    expect(diskIndex(['graph model'], 10).search('unknownword', 5)).toEqual([]);
  });
});
