import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../core/index.js';
import { createEmbedder, type Embedder } from '../../llm/index.js';
import { DiskDenseIndex } from '../dense/index.js';
import { type IndexedDocument, updateIndex, writeIndex } from './build-index.js';
import { loadIndex, openDense, readManifest } from './index-dir.js';
import { PAPER_FILES, readPaperFiles } from './index-papers.js';

const root = mkdtempSync(join(tmpdir(), 'cg-incremental-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const WORDS = 'graph neural network protein folding cell model training data loss attention layer zeta'.split(
  ' ',
);
/** Paper `id` in version `v` (another version: other words, other length, other digest). */
function paper(id: number, v = 0): IndexedDocument {
  const paras = Array.from({ length: 2 + ((id + v) % 4) }, (_, p) =>
    Array.from(
      { length: 8 + ((id * 7 + p + v * 3) % 25) },
      (_, w) => WORDS[(id * 3 + p * 5 + w * w + v * 11) % WORDS.length],
    ).join(' '),
  );
  const document = DocumentSchema.parse({
    id: `p${id}`,
    title: `Paper ${id}`,
    source: 'text',
    text: paras.join('\n\n'),
  });
  return { document, digest: `h${id}.${v}` };
}

const QUERIES = [
  'graph protein',
  'attention layer loss',
  'folding folding cell',
  'zeta model data',
  'neural',
];
const options = { maxTokens: 40, embedder: null, version: 'test', segmentPostings: 60 };

/** Every hit's score by passage id, for every query (all hits: k above the passage count). */
function scores(dir: string): Map<string, number>[] {
  const saved = loadIndex(dir);
  try {
    return QUERIES.map((q) => new Map(saved.bm25.search(q, 100_000).map((h) => [h.id, h.score])));
  } finally {
    saved.bm25.close();
    saved.passages.close();
  }
}

/** The corpus after the edits: papers in id order (as `indexCorpus` streams them). */
function corpusOf(versions: Map<number, number>): IndexedDocument[] {
  return [...versions].sort(([a], [b]) => a - b).map(([id, v]) => paper(id, v));
}

/**
 * Builds `before`, updates it to `after` in place (with `ann`, the update builds an ANN graph);
 * returns the updated folder and a rebuild of `after`.
 */
async function updatedAndRebuilt(
  before: Map<number, number>,
  after: Map<number, number>,
  embedder: { spec: string; embedder: Embedder } | null = null,
  ann = false,
) {
  const dir = join(root, `u${n++}`);
  await writeIndex(dir, () => corpusOf(before), { ...options, embedder });
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed = [...after].filter(([id, v]) => before.has(id) && before.get(id) !== v).map(([id]) => id);
  const appended = new Set([...after.keys()].filter((id) => !before.has(id)).concat(changed));
  await updateIndex(
    dir,
    readManifest(dir),
    {
      remove: [...removed, ...changed].map((id) => `p${id}`),
      add: () => corpusOf(after).filter((d) => appended.has(Number(d.document.id.slice(1)))),
    },
    { embedder: embedder?.embedder ?? null, version: 'test', segmentPostings: 60, ann },
  );
  const rebuilt = join(root, `r${n++}`);
  await writeIndex(rebuilt, () => corpusOf(after), { ...options, embedder });
  return { dir, rebuilt };
}

describe('updating an index in place (a new BM25 part, tombstones)', () => {
  it('scores every passage bit-identically to a rebuild after papers are added, removed and changed', async () => {
    const before = new Map(Array.from({ length: 30 }, (_, i) => [i, 0] as [number, number]));
    const after = new Map(before);
    for (const id of [3, 11, 20]) after.delete(id); // removed
    for (const id of [5, 6, 29]) after.set(id, 1); // changed
    for (const id of [30, 31, 32, 33]) after.set(id, 0); // added
    const { dir, rebuilt } = await updatedAndRebuilt(before, after);
    const m = readManifest(dir);
    expect(m.parts).toHaveLength(2);
    expect(m.papers).toBe(after.size);
    expect(m.passages).toBe(readManifest(rebuilt).passages);
    expect(m.deadRows).toBeGreaterThan(0);
    const got = scores(dir);
    const want = scores(rebuilt);
    for (let q = 0; q < QUERIES.length; q++) {
      expect(got[q]!.size).toBeGreaterThan(0);
      expect(got[q]).toEqual(want[q]);
    }
    // Passages: the changed paper is read at its new content, the removed one is gone.
    const saved = loadIndex(dir);
    const fresh = loadIndex(rebuilt);
    expect(saved.passages.get('p5#0')).toEqual(fresh.passages.get('p5#0'));
    expect(saved.passages.get('p3#0')).toBeUndefined();
    expect(saved.passages.size).toBe(fresh.passages.size);
    expect(new Set(saved.passages.keys())).toEqual(new Set(fresh.passages.keys()));
    // Only the new generation is left; the earlier parts were linked into it, not rewritten.
    expect(readdirSync(dir).filter((f) => f.startsWith('g-'))).toEqual([m.generation]);
  });

  it('property: any sequence of edits gives a rebuild’s BM25 scores (fast-check)', async () => {
    const edit = fc.record({ id: fc.nat({ max: 24 }), op: fc.constantFrom('add', 'remove', 'change') });
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const before = new Map(Array.from({ length: 16 }, (_, i) => [i, 0] as [number, number]));
        const after = new Map(before);
        for (const { id, op } of edits) {
          if (op === 'remove') after.delete(id);
          else if (op === 'change') after.set(id, (after.get(id) ?? 0) + 1);
          else if (!after.has(id)) after.set(id, 0);
        }
        if (after.size === 0) return;
        const { dir, rebuilt } = await updatedAndRebuilt(before, after);
        expect(scores(dir)).toEqual(scores(rebuilt));
        rmSync(dir, { recursive: true, force: true });
        rmSync(rebuilt, { recursive: true, force: true });
      }),
      { numRuns: 12, seed: 30 },
    );
  });

  it('appends vectors with the index’s embedder and never returns a tombstoned passage from dense search', async () => {
    const dir = join(root, `d${n++}`);
    const embedder = createEmbedder('hashed:32', { env: {} });
    const first = Array.from({ length: 10 }, (_, i) => paper(i));
    await writeIndex(dir, () => first, { ...options, embedder: { spec: 'hashed:32', embedder } });
    await updateIndex(
      dir,
      readManifest(dir),
      { remove: ['p2', 'p4'], add: () => [paper(4, 1), paper(10)] },
      { embedder, version: 'test' },
    );
    const saved = loadIndex(dir);
    const dense = openDense(dir, saved, embedder);
    const [query] = await embedder.embed([paper(2).document.text], 'query');
    const hits = dense.search([query!], 1000)[0]!;
    expect(hits).toHaveLength(saved.passages.size);
    const ids = hits.map((h) => h.id);
    expect(ids.some((id) => id.startsWith('p2#'))).toBe(false);
    expect(new Set(ids)).toEqual(new Set(saved.passages.keys()));
    // p4's hits are its new passages (rows after the earlier ones), not the tombstoned ones.
    const p4 = hits.filter((h) => h.id.startsWith('p4#'));
    expect(p4.length).toBeGreaterThan(0);
    for (const h of p4) expect(saved.passages.idAt(h.index)).toBe(h.id);
    expect(Math.min(...p4.map((h) => h.index))).toBeGreaterThanOrEqual(readManifest(dir).parts![0]!);
  });

  it('property: dense search after an update equals a rebuild’s exact search (exact, chunked and the ANN graph the update built; fast-check)', async () => {
    const embedder = createEmbedder('hashed:32', { env: {} });
    const queryVectors = await embedder.embed(QUERIES, 'query');
    const open = (saved: ReturnType<typeof loadIndex>, mode: 'exact' | 'ann', chunkRows?: number) =>
      DiskDenseIndex.open(
        saved.folder,
        embedder,
        {
          idAt: (row) => saved.passages.idAt(row),
          rowOf: (id) => saved.passages.rowOf(id),
          dead: () => saved.passages.deadMask(),
        },
        mode,
        chunkRows,
        saved.manifest.ann ?? null,
      );
    // Scores equal up to float32 rounding: the BLAS kernel's sums can differ in the last bit with
    // a row's position in memory, and rows of changed papers sit elsewhere after an update.
    const close = (a: number[], b: number[]) => {
      expect(a).toHaveLength(b.length);
      a.forEach((x, i) => {
        expect(Math.abs(x - (b[i] as number))).toBeLessThan(1e-6);
      });
    };
    const edit = fc.record({ id: fc.nat({ max: 30 }), op: fc.constantFrom('add', 'remove', 'change') });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4, max: 20 }),
        fc.array(edit, { minLength: 1, maxLength: 10 }),
        async (size, edits) => {
          const before = new Map(Array.from({ length: size }, (_, i) => [i, 0] as [number, number]));
          const after = new Map(before);
          for (const { id, op } of edits) {
            if (op === 'remove') after.delete(id);
            else if (op === 'change') after.set(id, (after.get(id) ?? 0) + 1);
            else if (!after.has(id)) after.set(id, 0);
          }
          if (after.size === 0) return;
          const { dir, rebuilt } = await updatedAndRebuilt(
            before,
            after,
            { spec: 'hashed:32', embedder },
            true,
          );
          const fresh = loadIndex(rebuilt);
          const reference = open(fresh, 'exact');
          const all = fresh.passages.size;
          const want3 = reference.search(queryVectors, 3);
          const wantAll = reference.search(queryVectors, all + 5);
          const saved = loadIndex(dir);
          for (const dense of [open(saved, 'exact'), open(saved, 'exact', 7), open(saved, 'ann')]) {
            // The top 3: the same scores (ids may differ only among equal scores: rows are in another order).
            dense.search(queryVectors, 3).forEach((hits, q) => {
              close(
                hits.map((h) => h.score),
                want3[q]!.map((h) => h.score),
              );
            });
            // Everything: exactly the live passages, each with its rebuilt score, none tombstoned.
            dense.search(queryVectors, all + 5).forEach((hits, q) => {
              expect(hits).toHaveLength(all);
              const byId = new Map(wantAll[q]!.map((h) => [h.id, h.score]));
              expect(new Set(hits.map((h) => h.id))).toEqual(new Set(byId.keys()));
              close(
                hits.map((h) => h.score),
                hits.map((h) => byId.get(h.id) as number),
              );
            });
            dense.close();
          }
          for (const s of [saved, fresh]) {
            s.bm25.close();
            s.passages.close();
          }
          reference.close();
          rmSync(dir, { recursive: true, force: true });
          rmSync(rebuilt, { recursive: true, force: true });
        },
      ),
      { numRuns: 15, seed: 34 },
    );
  });

  it('uses the paper files the freshness check read; unreadable ones are INDEX_CORRUPT', async () => {
    const dir = join(root, `f${n++}`);
    await writeIndex(dir, () => [paper(0), paper(1), paper(2)], options);
    const m = readManifest(dir);
    const folder = join(dir, m.generation as string);
    const files = readPaperFiles(folder);
    // Passed through: the files are not read again (here they are gone).
    for (const name of Object.values(PAPER_FILES)) rmSync(join(folder, name));
    const updated = await updateIndex(
      dir,
      m,
      { remove: ['p1'], add: () => [paper(3)] },
      { embedder: null, version: 'test', papers: files },
    );
    expect(updated.papers).toBe(3);
    const saved = loadIndex(dir);
    const ids = [...saved.passages.keys()];
    saved.passages.close();
    saved.bm25.close();
    expect(ids.some((id) => id.startsWith('p1#'))).toBe(false);
    expect(ids.some((id) => id.startsWith('p3#'))).toBe(true);
    // Not passed: read here, and a broken digests file is named as a corrupt index.
    writeFileSync(join(dir, updated.generation as string, PAPER_FILES.digests), '[broken');
    await expect(
      updateIndex(dir, updated, { remove: ['p0'], add: () => [] }, { embedder: null, version: 'test' }),
    ).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
  });
});
