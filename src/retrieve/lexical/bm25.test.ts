import { describe, expect, it } from 'vitest';
import { createAnalyzer } from './analyzer.js';
import { Bm25Index } from './bm25.js';

const docs = [
  { id: 'd0#0', text: 'The cat sat on the mat.' },
  { id: 'd1#0', text: 'Dogs and cats are running in the park.' },
  { id: 'd2#0', text: 'A treatise on graph neural networks for molecules.' },
  { id: 'd3#0', text: 'Neural network training with graphs; graph graph graph.' },
];

/** Textbook BM25 computed directly (the reference the index must match). */
function reference(query: string, k1: number, b: number) {
  const analyze = createAnalyzer({ stem: true, stopwords: true });
  const toks = docs.map((d) => analyze(d.text));
  const avgdl = toks.reduce((s, t) => s + t.length, 0) / toks.length;
  const n = docs.length;
  return toks.map((t) => {
    let score = 0;
    for (const q of analyze(query)) {
      const df = toks.filter((x) => x.includes(q)).length;
      if (!df) continue;
      const tf = t.filter((x) => x === q).length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * t.length) / avgdl));
    }
    return score;
  });
}

describe('createAnalyzer', () => {
  it.each([
    [{ stem: true, stopwords: true }, 'The Networks are running!', ['network', 'run']],
    [{ stem: false, stopwords: true }, 'The Networks are running!', ['networks', 'running']],
    [{ stem: false, stopwords: false }, 'The Ünïcode 42x', ['the', 'ünïcode', '42x']],
  ])('%j %j → %j', (config, text, tokens) => {
    expect(createAnalyzer(config)(text)).toEqual(tokens);
  });
});

describe('Bm25Index', () => {
  it.each([
    ['graph neural network', 1.2, 0.75],
    ['cats', 0.9, 0.4],
    ['graph graph', 2, 1],
  ])('scores %j exactly like textbook BM25 (k1=%d, b=%d)', (query, k1, b) => {
    const index = Bm25Index.build(docs, { k1, b });
    const ref = reference(query, k1, b);
    const hits = index.search(query, 10);
    expect(hits.length).toBe(ref.filter((s) => s > 0).length);
    for (const h of hits) expect(h.score).toBeCloseTo(ref[h.index] as number, 5);
    const order = ref
      .map((s, i) => ({ s, i }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i);
    expect(hits.map((h) => h.index)).toEqual(order.map((x) => x.i));
  });

  it('returns nothing for unknown or stop-word-only queries and respects k', () => {
    const index = Bm25Index.build(docs);
    expect(index.search('zebra', 5)).toEqual([]);
    expect(index.search('the and', 5)).toEqual([]);
    expect(index.search('graph cat', 1)).toHaveLength(1);
  });

  it('round-trips through a Buffer with its analyzer, and can override k1/b on load', () => {
    const index = Bm25Index.build(docs, { analyzer: { stem: false, stopwords: false } });
    const loaded = Bm25Index.fromBuffer(index.toBuffer());
    expect(loaded.analyzer).toEqual({ stem: false, stopwords: false });
    expect(loaded.ids).toEqual(docs.map((d) => d.id));
    expect(loaded.search('graph neural', 4)).toEqual(index.search('graph neural', 4));
    const other = Bm25Index.fromBuffer(index.toBuffer(), { k1: 2, b: 0 });
    expect(other.params).toEqual({ k1: 2, b: 0 });
  });

  it('refuses a buffer that is not an index', () => {
    expect(() => Bm25Index.fromBuffer(Buffer.from('hello world'), {}, 'x.bin')).toThrow(
      /x\.bin is not a citegeist BM25 index/,
    );
  });

  it('handles an empty corpus', () => {
    expect(Bm25Index.build([]).search('anything', 3)).toEqual([]);
  });
});
