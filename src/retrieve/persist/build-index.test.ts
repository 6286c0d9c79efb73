import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../core/index.js';
import { createEmbedder } from '../../llm/index.js';
import { writeFailure } from '../common/index.js';
import { DenseIndex } from '../dense/index.js';
import { Bm25Index } from '../lexical/index.js';
import { chunkDocument } from '../passages/index.js';
import { commitManifest, type IndexedDocument, writeIndex } from './build-index.js';
import { loadIndex, openDense, readManifest } from './index-dir.js';

const root = mkdtempSync(join(tmpdir(), 'cg-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const WORDS = 'graph neural network protein folding cell model training data loss attention layer'.split(' ');
function paper(i: number): IndexedDocument {
  const paras = Array.from({ length: 3 + (i % 4) }, (_, p) =>
    Array.from(
      { length: 12 + ((i * 7 + p) % 20) },
      (_, w) => WORDS[(i * 3 + p * 5 + w * w) % WORDS.length],
    ).join(' '),
  );
  const document = DocumentSchema.parse({
    id: `p${i}`,
    title: `Paper ${i}`,
    source: 'text',
    text: paras.join('\n\n'),
  });
  return { document, digest: `h${i}` };
}
const papers = Array.from({ length: 40 }, (_, i) => paper(i));
const options = { maxTokens: 256, embedder: null, version: 'test', segmentPostings: 50 };

describe('writeIndex (streamed, segmented, page-read)', () => {
  it('ranks and shows passages exactly as the in-memory indexes built from the same passages', async () => {
    const dir = join(root, 'same');
    const embedder = createEmbedder('hashed:64', { env: {} });
    const manifest = await writeIndex(dir, () => papers, {
      ...options,
      embedder: { spec: 'hashed:64', embedder },
      batchSize: 7,
    });
    const passages = papers.flatMap((p) => chunkDocument(p.document, { maxTokens: 256 }));
    expect(manifest.passages).toBe(passages.length);
    const saved = loadIndex(dir);
    const memory = Bm25Index.build(passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text })));
    for (const q of ['graph protein', 'attention layer loss', 'folding folding cell']) {
      expect(saved.bm25.search(q, 10)).toEqual(memory.search(q, 10));
    }
    const { indexText: _, ...shown } = passages[17]!;
    expect(saved.passages.get(passages[17]!.id)).toEqual(shown);
    expect(saved.passages.get('p3#999')).toBeUndefined();
    expect([...saved.passages.keys()]).toEqual(passages.map((p) => p.id));
    const vectors = await embedder.embed(
      passages.map((p) => p.indexText ?? p.text),
      'passage',
    );
    const dense = DenseIndex.fromVectors(
      embedder.id,
      passages.map((p) => p.id),
      vectors,
      'exact',
    );
    const [q] = await embedder.embed(['protein folding model'], 'query');
    expect(openDense(dir, saved, embedder, 'exact').search([q!], 10)).toEqual(dense.search([q!], 10));
  });

  it('names a hit the same way from its line (a few hits) and from the paper list (a batch, past 1,000)', () => {
    const saved = loadIndex(join(root, 'same'));
    const table = saved.passages;
    const lines = Array.from({ length: table.rows }, (_, row) => table.at(row).id);
    const named: string[] = [];
    while (named.length < 2_500) named.push(table.idAt(named.length % table.rows));
    expect(named).toEqual(named.map((_, i) => lines[i % table.rows]));
  });

  it('fits LSA on a bounded, evenly spaced sample above the budget, and says so', async () => {
    const dir = join(root, 'lsa');
    const manifest = await writeIndex(dir, () => papers, {
      ...options,
      embedder: { spec: 'lsa:8', embedder: createEmbedder('lsa:8', { env: {} }) },
      fitSample: 30,
    });
    expect(manifest.embedderFit).toMatchObject({ sampled: true, of: manifest.passages });
    expect(manifest.embedderFit!.passages).toBeLessThanOrEqual(30);
    expect(manifest.embedderFit!.passages).toBeGreaterThanOrEqual(15);
    const full = await writeIndex(join(root, 'lsa-full'), () => papers, {
      ...options,
      embedder: { spec: 'lsa:8', embedder: createEmbedder('lsa:8', { env: {} }) },
    });
    expect(full.embedderFit).toEqual({ passages: full.passages, of: full.passages, sampled: false });
  });

  it('leaves the previous index usable when a build fails midway, and cleans up after it', async () => {
    const dir = join(root, 'crash');
    const first = await writeIndex(dir, () => papers.slice(0, 10), options);
    writeFileSync(join(dir, 'recipes.jsonl'), '');
    function* failing(): Generator<IndexedDocument> {
      yield* papers.slice(0, 20);
      throw new Error('killed');
    }
    await expect(writeIndex(dir, failing, options)).rejects.toThrow('killed');
    expect(readManifest(dir)).toEqual(first);
    expect(loadIndex(dir).bm25.search('graph', 3)).toHaveLength(3);
    expect(readdirSync(dir).filter((n) => n.startsWith('g-'))).toEqual([first.generation]);
    // A build killed outright leaves its folder behind: the next build removes it.
    const orphan = join(dir, 'g-orphan');
    mkdirSync(orphan);
    const second = await writeIndex(dir, () => papers, options);
    expect(readdirSync(dir).sort()).toEqual([second.generation, 'manifest.json', 'recipes.jsonl'].sort());
    expect(existsSync(orphan)).toBe(false);
  });

  it('refuses an index of an older format with INDEX_VERSION, and names a full disk', () => {
    const dir = join(root, 'old');
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...papers, format: 2, documents: [] }));
    expect(() => loadIndex(dir)).toThrow(expect.objectContaining({ code: 'INDEX_VERSION' }));
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    expect(writeFailure('x/bm25.post', full)).toMatchObject({ code: 'INDEX_DISK_FULL' });
  });

  it.skipIf(!existsSync('/proc/self/fd'))(
    'a build leaves no file open, and a killed commit’s temporary manifest is removed by the next build',
    async () => {
      const dir = join(root, 'fds');
      const open = () => readdirSync('/proc/self/fd').length;
      const before = open();
      await writeIndex(dir, () => papers.slice(0, 12), { ...options, segmentPostings: 50 });
      expect(open()).toBe(before);
      // What writeFileAtomic leaves when killed between its write and its rename.
      writeFileSync(join(dir, '.manifest.json.0badc0de.tmp'), '{');
      const second = await writeIndex(dir, () => papers.slice(0, 12), options);
      expect(readdirSync(dir).sort()).toEqual([second.generation, 'manifest.json'].sort());
    },
  );

  it('a commit that cannot be written is a coded error and leaves the previous manifest', async () => {
    const dir = join(root, 'commit');
    const first = await writeIndex(dir, () => papers.slice(0, 5), options);
    // The folder is replaced by a file: the manifest's temporary file cannot be created in it.
    const blocked = join(root, 'commit-blocked');
    writeFileSync(blocked, '');
    expect(() => commitManifest(blocked, first)).toThrow(
      expect.objectContaining({ code: 'INDEX_WRITE_FAILED' }),
    );
    commitManifest(dir, { ...first, builtBy: 'again' });
    expect(readManifest(dir).builtBy).toBe('again');
    expect(readdirSync(dir).sort()).toEqual([first.generation, 'manifest.json'].sort());
  });
});
