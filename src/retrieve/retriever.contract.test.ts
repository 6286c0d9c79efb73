import { describe, expect, it } from 'vitest';
import { HashedEmbedder } from '../llm/index.js';
import type { Retriever } from './common/retriever.js';
import { PaperRetriever } from './defaults/paper-retriever.js';
import { defaultRetrieval } from './defaults/retrieval-defaults.js';
import { DenseRetriever } from './dense/index.js';
import { HybridRetriever } from './fusion/hybrid.js';
import { Bm25Index, Bm25Retriever } from './lexical/index.js';
import type { Passage } from './passages/passage.js';
import { ReciperRetriever } from './reciper/reciper-retriever.js';

/**
 * The Retriever contract, in the hono style: one suite run against every implementation. A
 * retriever returns at most k hits, best first, each id once, each a passage (or recipe) of its
 * corpus with its document id; the same query gives the same answer; a query made of one
 * passage's words finds that passage's document first; an empty query or k = 0 is no error.
 */
const passages: Passage[] = (
  [
    { id: 'a#0', docId: 'a', title: 'A', text: 'graphene membranes filter salt from seawater' },
    { id: 'a#1', docId: 'a', title: 'A', text: 'the membrane pores are one nanometre wide' },
    { id: 'b#0', docId: 'b', title: 'B', text: 'protein folding predicted from amino acid sequence' },
    { id: 'b#1', docId: 'b', title: 'B', text: 'alphafold structures of enzymes' },
    { id: 'c#0', docId: 'c', title: 'C', text: 'volcanic ash clouds disrupt aviation routes' },
    { id: 'c#1', docId: 'c', title: 'C', text: 'eruption plumes reach the stratosphere' },
  ] as const
).map((p) => ({ ...p, start: 0, end: p.text.length, sectionPath: [], page: null }));
const recipes = [
  { docId: 'a', title: 'A', text: 'desalination with graphene membranes' },
  { docId: 'b', title: 'B', text: 'predicting protein structure' },
  { docId: 'c', title: 'C', text: 'tracking volcanic ash for aviation' },
];
const embedder = new HashedEmbedder({ dimensions: 256 });
const known = new Set([...passages.map((p) => p.id), ...recipes.map((r) => `${r.docId}#recipe`)]);

const implementations: [string, () => Promise<Retriever>][] = [
  ['Bm25Retriever', async () => new Bm25Retriever(Bm25Index.build(passages))],
  ['DenseRetriever', () => DenseRetriever.over(embedder, passages)],
  [
    'HybridRetriever',
    async () =>
      new HybridRetriever([
        new Bm25Retriever(Bm25Index.build(passages)),
        await DenseRetriever.over(embedder, passages),
      ]),
  ],
  ['ReciperRetriever', () => ReciperRetriever.build(embedder, passages, recipes)],
  [
    'PaperRetriever',
    async () =>
      new PaperRetriever(passages, defaultRetrieval({ scope: 'paper', embedder: 'embedded' }), embedder),
  ],
];

describe.each(implementations)('Retriever contract: %s', (_name, make) => {
  it('returns at most k hits, best first, each id once, each a known passage with its document', async () => {
    const retriever = await make();
    expect(retriever.id).not.toBe('');
    for (const k of [1, 3, 100]) {
      const hits = await retriever.retrieve('graphene membranes for seawater', k);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(k);
      expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length);
      for (const [i, h] of hits.entries()) {
        expect(known.has(h.id), h.id).toBe(true);
        expect(h.docId).toBe(h.id.slice(0, h.id.indexOf('#')));
        expect(Number.isFinite(h.score)).toBe(true);
        if (i > 0) expect(h.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      }
    }
  });

  it.each([
    ['graphene membranes filter salt from seawater', 'a'],
    ['protein folding predicted from amino acid sequence', 'b'],
    ['volcanic ash clouds disrupt aviation routes', 'c'],
  ])('ranks the document of %j first (%s)', async (query, doc) => {
    expect((await (await make()).retrieve(query, 3))[0]?.docId).toBe(doc);
  });

  it('gives the same answer to the same query', async () => {
    const retriever = await make();
    const first = await retriever.retrieve('eruption plumes', 4);
    expect(await retriever.retrieve('eruption plumes', 4)).toEqual(first);
  });

  it('answers k = 0 and an empty query without an error', async () => {
    const retriever = await make();
    expect(await retriever.retrieve('graphene', 0)).toEqual([]);
    const empty = await retriever.retrieve('', 3);
    expect(Array.isArray(empty)).toBe(true);
    expect(empty.length).toBeLessThanOrEqual(3);
  });
});
