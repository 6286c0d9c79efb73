import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testing/index.js';
import { DenseRetriever } from '../dense/index.js';
import { Bm25Index, Bm25Retriever } from '../lexical/index.js';
import { PaperRetriever } from './paper-retriever.js';
import {
  BM25_ALONE,
  createRetriever,
  defaultRetrieval,
  describeRetrieval,
  embedderKind,
  hybridRetrieval,
} from './retrieval-defaults.js';

const passages = [
  { id: 'a#0', text: 'graphene membranes filter salt from seawater' },
  { id: 'a#1', text: 'the membrane pores are one nanometre wide' },
  { id: 'b#0', text: 'protein folding predicted from sequence' },
  { id: 'b#1', text: 'desalination of seawater with membranes' },
];

describe('defaultRetrieval (the measured rule, docs/retrieval.md "Defaults")', () => {
  it.each([
    ['corpus', 'none', 'BM25 alone'],
    ['corpus', 'embedded', 'BM25 alone'],
    ['paper', 'none', 'BM25 alone'],
    ['paper', 'embedded', 'BM25 fused with dense (weighted, weights 0.3/0.7)'],
    ['corpus', 'configured', 'BM25 fused with dense (weighted, weights 0.5/0.5)'],
    ['paper', 'configured', 'BM25 fused with dense (weighted, weights 0.5/0.5)'],
  ] as const)('%s scope, %s embedder: %s', (scope, embedder, described) => {
    expect(describeRetrieval(defaultRetrieval({ scope, embedder }))).toBe(described);
  });

  it('--mode hybrid takes the tuned fusion even where the default leaves the dense side out', () => {
    expect(describeRetrieval(hybridRetrieval({ scope: 'corpus', embedder: 'embedded' }))).toBe(
      'BM25 fused with dense (weighted, weights 0.9/0.1)',
    );
  });

  it.each([
    [undefined, 'none'],
    [null, 'none'],
    ['default', 'embedded'],
    ['lsa:128', 'embedded'],
    ['lsa-bm25', 'embedded'],
    ['hashed:64', 'embedded'],
    ['openai:text-embedding-3-small', 'configured'],
    ['transformers:/models/bge-small', 'configured'],
  ] as const)('embedderKind(%s) = %s', (spec, kind) => {
    expect(embedderKind(spec)).toBe(kind);
  });
});

describe('createRetriever and PaperRetriever', () => {
  it('BM25 alone when the config has no dense side, whatever is passed', async () => {
    const bm25 = Bm25Index.build(passages);
    const r = createRetriever(BM25_ALONE, { bm25 });
    expect(r.id).toBe('bm25');
    // Both query words are in b#1 and a#0 (b#1 is shorter, so it ranks first); a#1 has "membrane".
    expect((await r.retrieve('seawater membranes', 3)).map((h) => h.id)).toEqual(['b#1', 'a#0', 'a#1']);
  });

  it('fuses min–max normalised BM25 and dense scores with the configured weights', async () => {
    const embedder = new FakeEmbedder(16);
    const bm25 = Bm25Index.build(passages);
    const dense = await DenseRetriever.over(embedder, passages);
    const config = defaultRetrieval({ scope: 'paper', embedder: 'embedded' });
    const fused = await createRetriever(config, { bm25, dense }).retrieve('seawater membranes', 4);
    // The expected ranking, worked out here from the two raw lists (not with the fusion code):
    // each list min–max normalised to [0, 1], then 0.3 · BM25 + 0.7 · dense, ties by id.
    const lists = [
      await new Bm25Retriever(bm25).retrieve('seawater membranes', 100),
      await dense.retrieve('seawater membranes', 100),
    ];
    const weights = [0.3, 0.7];
    const scores = new Map<string, number>();
    lists.forEach((list, i) => {
      const values = list.map((h) => h.score);
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      for (const h of list) {
        const norm = hi > lo ? (h.score - lo) / (hi - lo) : 1;
        scores.set(h.id, (scores.get(h.id) ?? 0) + (weights[i] as number) * norm);
      }
    });
    const expected = [...scores]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, 4)
      .map(([id, score]) => ({ id, score }));
    expect(fused.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    fused.forEach((h, i) => {
      expect(h.score).toBeCloseTo(expected[i]?.score as number, 12);
    });
    // Within one paper the same configuration, with the passages embedded on first use.
    const paper = new PaperRetriever(passages, config, embedder);
    expect(await paper.retrieve('seawater membranes', 4)).toEqual(fused);
    expect(await new PaperRetriever([], config, embedder).retrieve('x', 3)).toEqual([]);
  });
});
