import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../core/index.js';
import { createEmbedder } from '../../llm/index.js';
import { createRandom } from '../../stats/index.js';
import { CorpusStore } from '../../store/index.js';
import { type IndexedDocument, updateIndex, writeIndex } from './build-index.js';
import { loadIndex, readManifest } from './index-dir.js';
import { restoreEmbedder } from './restore-embedder.js';

// Parallel builds: the same papers indexed on one thread and in shards on worker threads must
// give the same index, file for file and byte for byte, on every path (BM25 only, a fitted LSA
// embedding its fit's passages, a sampled fit embedding every passage on the workers, an update).

const root = mkdtempSync(join(tmpdir(), 'cg-parallel-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const VOCABULARY = Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1000}x${'abcdefgh'[i % 8]}`);
function paper(i: number): IndexedDocument {
  const next = createRandom(i + 1);
  const word = () => VOCABULARY[Math.floor(next() ** 2 * VOCABULARY.length)] as string;
  const paras = Array.from({ length: 2 + (i % 5) }, () =>
    Array.from({ length: 10 + Math.floor(next() * 40) }, word).join(' '),
  );
  const text = paras.join('\n\n');
  // A citation marker in every third paper: its passages are indexed by a text other than the shown one.
  const markers = i % 3 === 0 ? [{ start: 0, end: 4, kind: 'citation', targets: [] }] : [];
  const document = DocumentSchema.parse({ id: `p${i}`, title: `Paper ${i}`, source: 'text', text, markers });
  return { document, digest: `d${i}` };
}

const papers = Array.from({ length: 60 }, (_, i) => paper(i));
const corpusPath = join(root, 'corpus.sqlite');
const store = CorpusStore.open(corpusPath);
for (const p of papers) store.upsert(p.document, p.digest);
store.close();

/** Every file of the committed generation: relative path → sha256. */
function filesOf(dir: string): Record<string, string> {
  const folder = join(dir, readManifest(dir).generation as string);
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(folder, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(folder);
  return out;
}

const base = { maxTokens: 40, version: 'test', segmentPostings: 200, batchSize: 16 };
const parallel = (list: readonly IndexedDocument[], workers: number) => ({
  corpusPath,
  papers: list.map((p) => [p.document.id, p.digest] as const),
  workers,
});

async function buildBoth(name: string, spec: string, extra: { fitSample?: number } = {}) {
  const embedder = () => ({ spec, embedder: createEmbedder(spec, { env: {} }) });
  const one = join(root, `${name}-one`);
  const many = join(root, `${name}-many`);
  await writeIndex(one, () => papers, { ...base, ...extra, embedder: embedder() });
  await writeIndex(many, () => [], {
    ...base,
    ...extra,
    embedder: embedder(),
    parallel: parallel(papers, 2),
  });
  return { one, many };
}

describe('an index built in shards on worker threads', { timeout: 180_000 }, () => {
  it('is the one-thread index byte for byte: BM25 only, a listed paper gone from the corpus skipped as the stream skips it', async () => {
    const one = join(root, 'bm25-one');
    const many = join(root, 'bm25-many');
    await writeIndex(one, () => papers, { ...base, embedder: null });
    const ghost = DocumentSchema.parse({ id: 'ghost', title: 'G', source: 'text', text: 'x y z' });
    const listed = [...papers.slice(0, 10), { document: ghost, digest: 'g' }, ...papers.slice(10)];
    const manifest = await writeIndex(many, () => [], {
      ...base,
      embedder: null,
      parallel: parallel(listed, 2),
    });
    expect(manifest.papers).toBe(papers.length);
    expect(manifest.passages).toBeGreaterThan(200);
    expect(filesOf(many)).toEqual(filesOf(one));
  });

  it('is the one-thread index byte for byte: LSA fitted on every passage', async () => {
    const { one, many } = await buildBoth('lsa-all', 'lsa:8');
    expect(readManifest(many).embedderFit).toEqual({
      passages: readManifest(one).passages,
      of: readManifest(one).passages,
      sampled: false,
    });
    expect(filesOf(many)).toEqual(filesOf(one));
  });

  it('is the one-thread index byte for byte: LSA fitted on a stride sample, every passage embedded on the workers', async () => {
    const { one, many } = await buildBoth('lsa-sample', 'lsa:8', { fitSample: 50 });
    const fit = readManifest(many).embedderFit;
    expect(fit?.sampled).toBe(true);
    expect(fit?.passages).toBeLessThanOrEqual(50);
    expect(filesOf(many)).toEqual(filesOf(one));
  });

  it('updates an index the same way: the new part and the appended vectors are the one-thread ones', async () => {
    const spec = 'lsa:8';
    const first = papers.slice(0, 40);
    const added = papers.slice(40);
    const dirs = [join(root, 'update-one'), join(root, 'update-many')];
    for (const [i, dir] of dirs.entries()) {
      await writeIndex(dir, () => first, {
        ...base,
        embedder: { spec, embedder: createEmbedder(spec, { env: {} }) },
        ...(i === 1 ? { parallel: parallel(first, 2) } : {}),
      });
      const manifest = readManifest(dir);
      const embedder = restoreEmbedder(loadIndex(dir), undefined, {});
      await updateIndex(
        dir,
        manifest,
        { remove: ['p3'], add: () => (i === 0 ? added : []) },
        { ...base, embedder, ...(i === 1 ? { parallel: parallel(added, 2) } : {}) },
      );
    }
    const [one, many] = dirs.map((d) => filesOf(d as string));
    expect(readManifest(dirs[1] as string).parts).toEqual(readManifest(dirs[0] as string).parts);
    expect(many).toEqual(one);
  });

  it('fails as a whole, leaving the previous index, when a worker cannot read the corpus', async () => {
    const dir = join(root, 'bm25-one');
    const before = filesOf(dir);
    const notACorpus = join(root, 'not-a-corpus.sqlite');
    writeFileSync(notACorpus, 'this is not a database');
    await expect(
      writeIndex(dir, () => [], {
        ...base,
        embedder: null,
        parallel: { ...parallel(papers, 2), corpusPath: notACorpus },
      }),
    ).rejects.toThrow();
    expect(filesOf(dir)).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.startsWith('g-'))).toHaveLength(1);
  });
});
