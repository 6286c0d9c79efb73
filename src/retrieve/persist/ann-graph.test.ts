import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../core/index.js';
import type { Embedder, EmbedRole } from '../../llm/index.js';
import { PageFile } from '../common/index.js';
import {
  ANN_FILE,
  AnnIndex,
  buildAnnGraph,
  DENSE_FILES,
  DenseFileWriter,
  DiskDenseIndex,
  normalizeRows,
} from '../dense/index.js';
import { type IndexedDocument, updateIndex, writeIndex } from './build-index.js';
import { loadIndex, openDense, type SavedIndex } from './index-dir.js';

const root = mkdtempSync(join(tmpdir(), 'cg-ann-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

const D = 32;
const CLUSTERS = 20;

/** Deterministic pseudo-random numbers in [−0.5, 0.5) (Park–Miller). */
function random(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  };
}

const centres = Array.from({ length: CLUSTERS }, (_, c) => {
  const r = random(1000 + c);
  return normalizeRows(Float32Array.from({ length: D }, r), D);
});

/**
 * Passage `item N` gets a vector near centre N mod 20 (Gaussian-like noise seeded by N): clustered
 * like real embeddings, so HNSW at the default settings reaches high recall.
 */
class ClusteredEmbedder implements Embedder {
  readonly id = 'test:clustered-32';
  readonly dimensions = D;
  readonly normalized = true;
  async embed(texts: string[], _role: EmbedRole): Promise<Float32Array[]> {
    return texts.map((t) => {
      const item = Number(/item (\d+)/.exec(t)?.[1] ?? 0);
      const r = random(item + 7);
      const centre = centres[item % CLUSTERS] as Float32Array;
      return normalizeRows(
        Float32Array.from(centre, (x) => x + 0.15 * (r() + r() + r())),
        D,
      );
    });
  }
}
const embedder = new ClusteredEmbedder();

/** Paper `id`: 50 one-sentence paragraphs, items id·50 … id·50+49 (one passage each). */
function paper(id: number): IndexedDocument {
  const text = Array.from({ length: 50 }, (_, p) => `This is item ${id * 50 + p} of paper ${id}.`).join(
    '\n\n',
  );
  return {
    document: DocumentSchema.parse({ id: `p${id}`, title: `Paper ${id}`, source: 'text', text }),
    digest: `h${id}`,
  };
}
const PAPERS = 40; // 2,000 passages
const corpus = () => Array.from({ length: PAPERS }, (_, i) => paper(i));
const options = { maxTokens: 64, embedder: { spec: 'test:clustered', embedder }, version: 'test' };

function open(saved: SavedIndex, mode: 'auto' | 'exact' | 'ann' = 'auto') {
  return openDense('index', saved, embedder, mode);
}
function close(saved: SavedIndex): void {
  saved.bm25.close();
  saved.passages.close();
}

async function queryVectors(): Promise<Float32Array[]> {
  // Unseen points of four clusters (items past the corpus).
  return embedder.embed(
    [5003, 5777, 6500, 6999].map((i) => `item ${i}`),
    'query',
  );
}

describe('index --ann: a persisted, certified HNSW graph', () => {
  it('is built into the generation folder and certified at recall@10 ≥ 0.95 on clustered vectors', async () => {
    const dir = join(root, `a${n++}`);
    const m = await writeIndex(dir, corpus, { ...options, ann: true });
    expect(m.passages).toBe(PAPERS * 50);
    const ann = m.ann!;
    expect(ann).toMatchObject({
      file: ANN_FILE,
      vectors: m.passages,
      dimensions: D,
      m: 16,
      efConstruction: 64,
    });
    expect(ann.queries).toBe(200);
    expect(ann.recallAt10).toBeGreaterThanOrEqual(0.95);
    expect(ann.metTarget).toBe(true);
    expect(ann.trials.at(-1)).toEqual({ efSearch: ann.efSearch, recallAt10: ann.recallAt10 });
    expect(ann.builtInMs).toBeGreaterThanOrEqual(0);
    // Kill-safe layout: the graph lives inside the generation the manifest names, nothing beside it.
    expect(existsSync(join(dir, m.generation!, ANN_FILE))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('hnsw'))).toEqual([]);
    expect(readdirSync(join(dir, m.generation!)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('auto searches with the persisted graph; its hits equal a freshly built graph’s; exact stays available', async () => {
    const dir = join(root, `a${n++}`);
    const m = await writeIndex(dir, corpus, { ...options, ann: true });
    const saved = loadIndex(dir);
    const auto = open(saved);
    expect(auto.kind).toBe('ann');
    const exact = open(saved, 'exact');
    expect(exact.kind).toBe('exact');
    // The same vectors added in the same order with the same seed give the same graph.
    const folder = join(dir, m.generation!);
    const vectors = DiskDenseIndex.open(folder, embedder, { idAt: String, rowOf: () => undefined }, 'exact');
    const all = new Float32Array(m.passages * D);
    const file = new PageFile(join(folder, DENSE_FILES.vectors));
    all.set(file.float32(0, m.passages * D));
    file.close();
    vectors.close();
    const { m: degree, efConstruction, efSearch } = m.ann!;
    const fresh = new AnnIndex(all, D, { m: degree, efConstruction, efSearch });
    const qs = await queryVectors();
    const got = auto.search(qs, 10);
    const want = fresh.search(
      qs.map((q) => normalizeRows(Float32Array.from(q), D)),
      10,
    );
    expect(got.map((hits) => hits.map((h) => [h.index, h.score]))).toEqual(
      want.map((hits) => hits.map((h) => [h.index, h.score])),
    );
    for (const hits of got) for (const h of hits) expect(h.id).toBe(saved.passages.idAt(h.index));
    // And they are (nearly) the exact top 10.
    const truth = exact.search(qs, 10);
    const found = got.reduce(
      (sum, hits, q) => sum + hits.filter((h) => truth[q]!.some((t) => t.index === h.index)).length,
      0,
    );
    expect(found / 40).toBeGreaterThanOrEqual(0.9);
    auto.close();
    exact.close();
    close(saved);
  });

  it('without a graph: auto is exact (none is built on open) and dense mode ann is INDEX_NO_ANN', async () => {
    const dir = join(root, `a${n++}`);
    const m = await writeIndex(dir, corpus, options);
    expect(m.ann).toBeUndefined();
    expect(existsSync(join(dir, m.generation!, ANN_FILE))).toBe(false);
    const saved = loadIndex(dir);
    const auto = open(saved);
    expect(auto.kind).toBe('exact');
    auto.close();
    expect(() => open(saved, 'ann')).toThrow(
      expect.objectContaining({ code: 'INDEX_NO_ANN', message: expect.stringMatching(/no ANN graph/) }),
    );
    close(saved);
  });

  it('never returns a tombstoned row: the graph skips them, and a query it cannot fill is answered exactly', async () => {
    const dir = join(root, `a${n++}`);
    const m = await writeIndex(dir, corpus, { ...options, ann: true });
    const saved = loadIndex(dir);
    const folder = join(dir, m.generation!);
    const qs = await queryVectors();
    const rows = {
      idAt: (r: number) => saved.passages.idAt(r),
      rowOf: (id: string) => saved.passages.rowOf(id),
    };
    // Half the rows dead: the graph is asked to skip them.
    const half = Uint8Array.from({ length: m.passages }, (_, r) => (r % 2 === 0 ? 1 : 0));
    const withHalf = DiskDenseIndex.open(
      folder,
      embedder,
      { ...rows, dead: () => half },
      'auto',
      undefined,
      m.ann!,
    );
    expect(withHalf.kind).toBe('ann');
    const exactHalf = DiskDenseIndex.open(folder, embedder, { ...rows, dead: () => half }, 'exact');
    const got = withHalf.search(qs, 10);
    for (const hits of got) {
      expect(hits).toHaveLength(10);
      for (const h of hits) expect(half[h.index]).toBe(0);
    }
    // All but 3 rows dead: the filtered graph search may come back short; the answer is then exact.
    const few = new Uint8Array(m.passages).fill(1);
    for (const r of [5, 900, 1700]) few[r] = 0;
    const withFew = DiskDenseIndex.open(
      folder,
      embedder,
      { ...rows, dead: () => few },
      'ann',
      undefined,
      m.ann!,
    );
    const exactFew = DiskDenseIndex.open(folder, embedder, { ...rows, dead: () => few }, 'exact');
    const want = exactFew.search(qs, 10);
    withFew.search(qs, 10).forEach((hits, q) => {
      expect(hits.map((h) => h.id)).toEqual(want[q]!.map((h) => h.id));
      hits.forEach((h, i) => {
        expect(h.score).toBeCloseTo(want[q]![i]!.score, 6);
      });
      expect(hits).toHaveLength(3);
    });
    // A graph lacking live rows (rows ≥ 1000 left out) with rows 0–997 dead: the graph has 2 live
    // rows to give for k = 10, so the queries are answered by the exact scan.
    const partial = buildAnnGraph(folder, {
      embedderId: embedder.id,
      count: m.passages,
      dimensions: D,
      dead: Uint8Array.from({ length: m.passages }, (_, r) => (r >= 1000 ? 1 : 0)),
    });
    expect(partial.vectors).toBe(1000);
    const early = Uint8Array.from({ length: m.passages }, (_, r) => (r < 998 ? 1 : 0));
    const short = DiskDenseIndex.open(
      folder,
      embedder,
      { ...rows, dead: () => early },
      'ann',
      undefined,
      partial,
    );
    const exactEarly = DiskDenseIndex.open(folder, embedder, { ...rows, dead: () => early }, 'exact');
    expect(short.search(qs, 10)).toEqual(exactEarly.search(qs, 10));
    for (const d of [withHalf, exactHalf, withFew, exactFew, short, exactEarly]) d.close();
    close(saved);
  });

  it('an update drops the graph (never a stale one) or, with ann, rebuilds it from the live rows', async () => {
    const dir = join(root, `a${n++}`);
    const built = await writeIndex(dir, corpus, { ...options, ann: true });
    const update = { remove: ['p3', 'p7'], add: () => [paper(PAPERS), paper(PAPERS + 1)] };
    const dropped = await updateIndex(dir, built, update, { embedder, version: 'test' });
    expect(dropped.ann).toBeUndefined();
    expect(existsSync(join(dir, dropped.generation!, ANN_FILE))).toBe(false);
    let saved = loadIndex(dir);
    expect(open(saved).kind).toBe('exact');
    expect(() => open(saved, 'ann')).toThrow(expect.objectContaining({ code: 'INDEX_NO_ANN' }));
    close(saved);

    const rebuilt = await updateIndex(
      dir,
      dropped,
      { remove: ['p5'], add: () => [paper(PAPERS + 2)] },
      { embedder, version: 'test', ann: true },
    );
    const ann = rebuilt.ann!;
    expect(rebuilt.deadRows).toBe(150);
    // The graph holds the live rows only.
    expect(ann.vectors).toBe(rebuilt.passages);
    expect(ann.recallAt10).toBeGreaterThanOrEqual(0.95);
    expect(existsSync(join(dir, rebuilt.generation!, ANN_FILE))).toBe(true);
    saved = loadIndex(dir);
    const dense = open(saved);
    expect(dense.kind).toBe('ann');
    const hits = dense.search(await queryVectors(), rebuilt.rows!);
    for (const list of hits) {
      expect(list.length).toBeGreaterThan(0);
      for (const h of list) expect(h.id).not.toMatch(/^p[357]#/);
    }
    // Passages of the papers added by both updates are found.
    const [own] = dense.search(await embedder.embed([`item ${(PAPERS + 2) * 50 + 4}`], 'query'), 1);
    expect(own![0]!.id).toMatch(new RegExp(`^p${PAPERS + 2}#`));
    dense.close();
    close(saved);
  });

  it('raises efSearch (doubling, up to the cap) until recall@10 reaches the target, and says when it does not', () => {
    const folder = join(root, `v${n++}`);
    mkdirSync(folder);
    // Uniform random vectors and a sparse graph: the hard case, low recall at a small efSearch.
    const writer = new DenseFileWriter(folder);
    const r = random(42);
    writer.add(Array.from({ length: 1500 }, () => Float32Array.from({ length: D }, r)));
    writer.close('test:uniform', D);
    const vectors = { embedderId: 'test:uniform', count: 1500, dimensions: D, dead: null };
    const raised = buildAnnGraph(folder, vectors, { m: 4, efConstruction: 8, efSearch: 2 });
    expect(raised.trials.length).toBeGreaterThan(1);
    expect(raised.trials.map((t) => t.efSearch)).toEqual(raised.trials.map((_, i) => 2 * 2 ** i));
    expect(raised.trials[0]!.recallAt10).toBeLessThan(0.95);
    expect(raised.metTarget).toBe(true);
    expect(raised.recallAt10).toBeGreaterThanOrEqual(0.95);
    expect(raised.efSearch).toBe(raised.trials.at(-1)!.efSearch);
    const capped = buildAnnGraph(folder, vectors, { m: 4, efConstruction: 8, efSearch: 2, efCap: 4 });
    expect(capped.trials.map((t) => t.efSearch)).toEqual([2, 4]);
    expect(capped.efSearch).toBe(4);
    expect(capped.metTarget).toBe(false);
    expect(capped.recallAt10).toBeLessThan(0.95);
  });
});

describe('buildAnnGraph on tiny indexes', () => {
  it.each([0, 1, 2])(
    '%i live vector(s): a graph, and recall measured only when there is a neighbour',
    (count) => {
      const folder = join(root, `t${n++}`);
      mkdirSync(folder);
      const writer = new DenseFileWriter(folder);
      const r = random(9);
      writer.add(Array.from({ length: count }, () => Float32Array.from({ length: D }, r)));
      writer.close('test:tiny', D);
      const report = buildAnnGraph(folder, { embedderId: 'test:tiny', count, dimensions: D, dead: null });
      expect(report.vectors).toBe(count);
      expect(existsSync(join(folder, ANN_FILE))).toBe(true);
      if (count < 2) {
        expect(report).toMatchObject({
          recallAt10: null,
          queries: 0,
          trials: [],
          metTarget: true,
          efSearch: 64,
        });
      } else {
        expect(report).toMatchObject({ recallAt10: 1, queries: 2, metTarget: true });
      }
    },
  );
});
