import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANALYZER } from './analyzer.js';
import { Bm25Index } from './bm25.js';
import { BlockIndex, writeBlockIndex } from './bm25-block-index.js';
import { Bm25DiskIndex } from './bm25-disk.js';
import { compareTerms, type DictBlock } from './bm25-disk-format.js';
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

  it('is exact over parts and tombstones spanning several pages of document lengths', () => {
    // 10,500 rows in three parts (each page of lengths is 4,096 rows, so parts and tombstones cross pages).
    const sizes = [3000, 5000, 2500];
    const texts = Array.from({ length: 10_500 }, (_, i) =>
      WORDS.filter((_, j) => (i * 13 + j * 5) % (j + 3) === 0 || (i + j) % 11 === 0).join(' '),
    );
    let base = 0;
    const parts = sizes.map((rows, p) => {
      const dir = join(root, `pages-${p}`);
      mkdirSync(dir);
      const w = new Bm25SegmentWriter(dir, DEFAULT_ANALYZER, 5000);
      for (const t of texts.slice(base, base + rows)) w.add(t);
      w.finish({ k1: 0.9, b: 0.4 });
      const part = { dir, base, rows };
      base += rows;
      return part;
    });
    const dead = new Uint8Array(texts.length);
    for (const [from, to] of [
      [10, 400],
      [2990, 3010],
      [4090, 4100],
      [8000, 8200],
      [10_400, 10_500],
    ] as const)
      dead.fill(1, from, to);
    const disk = Bm25DiskIndex.openParts(parts, { idAt: (row) => `d${row}#0`, dead: () => dead });
    const live = texts.flatMap((text, row) => (dead[row] ? [] : [{ id: `d${row}#0`, text }]));
    const memory = Bm25Index.build(live);
    expect(disk.size).toBe(live.length);
    for (const q of ['graph model', 'zeta alpha alpha', 'protein fold cell data loss', 'network']) {
      const got = disk.search(q, 15);
      expect(got.map(({ id, score }) => [id, score])).toEqual(
        memory.search(q, 15).map(({ id, score }) => [id, score]),
      );
      expect(got).toEqual(disk.searchExhaustive(q, 15));
    }
    disk.close();
  });

  it('block index: a binary search by page reads finds the block a linear scan finds', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), {
          minLength: 1,
          maxLength: 80,
        }),
        fc.array(fc.string({ unit: 'grapheme', maxLength: 8 }), { minLength: 1, maxLength: 20 }),
        (terms, probes) => {
          const firsts = [...terms].sort(compareTerms);
          let offset = 0;
          const blocks: DictBlock[] = firsts.map((t, i) => {
            const block: DictBlock = [t, offset, 10 + i];
            offset += 10 + i;
            return block;
          });
          const path = join(root, `blocks-${n++}`);
          writeBlockIndex(path, blocks);
          const index = new BlockIndex(path, blocks.length);
          for (const term of [...probes, ...firsts]) {
            let at = -1;
            blocks.forEach(([first], i) => {
              if (compareTerms(first, term) <= 0) at = i;
            });
            const want = at < 0 ? undefined : { offset: blocks[at]![1], length: blocks[at]![2] };
            expect(index.find(term)).toEqual(want);
          }
          index.close();
        },
      ),
      { numRuns: 100, seed: 34 },
    );
  });
});
