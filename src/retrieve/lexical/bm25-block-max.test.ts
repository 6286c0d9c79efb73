import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../stats/index.js';
import { DEFAULT_ANALYZER } from './analyzer.js';
import { Bm25Index } from './bm25.js';
import { Bm25DiskIndex, type Bm25PartLocation } from './bm25-disk.js';
import { POSTING_BLOCK } from './bm25-disk-format.js';
import { Bm25SegmentWriter } from './bm25-segments.js';

const root = mkdtempSync(join(tmpdir(), 'cg-bm25bmw-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const LETTERS = 'bcdfgklmnprt';
/** The i-th word of the synthetic vocabulary (letters the stemmer leaves alone). */
const word = (i: number) =>
  `zq${LETTERS[Math.floor(i / LETTERS.length) % LETTERS.length]}${LETTERS[i % LETTERS.length]}`;

/** `docs` texts whose words follow a Zipf law of exponent `s` over `vocab` words (the first ones in most documents). */
function zipfCorpus(seed: number, docs: number, vocab: number, s: number): string[] {
  const rand = createRandom(seed);
  const cdf = new Float64Array(vocab);
  let total = 0;
  for (let i = 0; i < vocab; i++) {
    total += 1 / (i + 1) ** s;
    cdf[i] = total;
  }
  const pick = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = vocab - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return word(lo);
  };
  return Array.from({ length: docs }, () => {
    // Lengths from empty to long, so length normalisation and the block bounds vary.
    const length = Math.floor(rand() ** 2 * 80);
    return Array.from({ length }, pick).join(' ');
  });
}

/** Writes `texts` as parts of the given sizes (small segments, so the merge joins several) and opens them. */
function partsOf(texts: readonly string[], sizes: readonly number[]): Bm25PartLocation[] {
  let base = 0;
  return sizes.map((rows) => {
    const dir = join(root, `p${n++}`);
    mkdirSync(dir);
    const w = new Bm25SegmentWriter(dir, DEFAULT_ANALYZER, 3000);
    for (const t of texts.slice(base, base + rows)) w.add(t);
    w.finish({ k1: 0.9, b: 0.4 });
    const part = { dir, base, rows };
    base += rows;
    return part;
  });
}

describe('BM25 block-max top-k (lists of many blocks)', () => {
  it('ranks exactly as exhaustive scoring and the in-memory index: Zipf corpora, parts, tombstones, k 1/10/100', () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          docs: fc.integer({ min: 200, max: 4000 }),
          vocab: fc.integer({ min: 5, max: 140 }),
          s: fc.double({ min: 0.6, max: 1.6, noNaN: true }),
          parts: fc.integer({ min: 1, max: 3 }),
          tombstones: fc.constantFrom(0, 0.01, 0.2),
          params: fc.constantFrom(undefined, { k1: 1.5, b: 0.9 }, { k1: 0.9, b: 0 }),
          queries: fc.array(fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 8 }), {
            minLength: 1,
            maxLength: 4,
          }),
        }),
        ({ seed, docs, vocab, s, parts, tombstones, params, queries }) => {
          const texts = zipfCorpus(seed, docs, vocab, s);
          const cut = Array.from({ length: parts - 1 }, (_, i) => Math.floor(((i + 1) * docs) / parts));
          const sizes = [...cut, docs].map((end, i) => end - (i ? (cut[i - 1] as number) : 0));
          const rand = createRandom(seed ^ 0x5bd1e995);
          const dead = new Uint8Array(docs);
          // Tombstones in runs (a removed paper's passages are consecutive rows).
          for (let row = 0; row < docs; row++) {
            if (rand() < tombstones / 4) dead.fill(1, row, Math.min(docs, row + 1 + Math.floor(rand() * 7)));
          }
          const disk = Bm25DiskIndex.openParts(
            partsOf(texts, sizes),
            { idAt: (row) => `d${row}#0`, dead: () => (tombstones ? dead : null) },
            params,
          );
          const live = texts.flatMap((text, row) =>
            tombstones && dead[row] ? [] : [{ id: `d${row}#0`, text }],
          );
          const memory = Bm25Index.fromBuffer(Bm25Index.build(live).toBuffer(), params);
          for (const q of queries) {
            // Repeated terms and words absent from the index included.
            const query = q.map(word).join(' ');
            for (const k of [1, 10, 100]) {
              const pruned = disk.search(query, k);
              expect(pruned).toEqual(disk.searchExhaustive(query, k));
              expect(pruned.map(({ id, score }) => [id, score])).toEqual(
                memory.search(query, k).map(({ id, score }) => [id, score]),
              );
            }
          }
          disk.close();
        },
      ),
      { numRuns: 40, seed: 128 },
    );
  });

  it('reads only some of the blocks of a long list for a selective query', () => {
    // 60,000 documents: "zqbb" in every one (469 blocks); "zqbc" in one of every 500, three times
    // in the first ten of them (the top ten), once in the later ones.
    const texts = Array.from({ length: 60_000 }, (_, i) =>
      i % 500 === 7 ? `zqbb zqbc${i < 5000 ? ' zqbc zqbc' : ''}` : `zqbb${i % 3 ? ' zqbd' : ''}`,
    );
    const [part] = partsOf(texts, [texts.length]);
    const disk = Bm25DiskIndex.open(part!.dir, (row) => `d${row}#0`);
    const before = disk.bytesRead;
    const hits = disk.search('zqbb zqbc', 10);
    const read = disk.bytesRead - before;
    expect(hits.map((h) => h.index)).toEqual(Array.from({ length: 10 }, (_, i) => 7 + 500 * i));
    expect(hits).toEqual(disk.searchExhaustive('zqbb zqbc', 10));
    // The whole list of "zqbb" is 60,000 × 8 bytes; past the tenth hit no block of it is read.
    expect(read).toBeLessThan((60_000 * 8) / 4);
    expect(read).toBeGreaterThan(POSTING_BLOCK * 8);
    disk.close();
  });
});
