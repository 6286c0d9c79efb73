import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer, faults } from '../../testing/index.js';
import { ResponseCache } from '../cache.js';
import { createEmbedder, needsFitting } from '../create-embedder.js';
import { HashedEmbedder } from './hashed.js';
import { LsaEmbedder } from './lsa.js';
import type { FeatureExtractor } from './transformers.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const CORPUS = [
  'Amoxicillin dosing in dogs with urinary tract infections.',
  'The antibiotic amoxicillin treats bacterial infection in canine patients.',
  'Transformer language models are pretrained on large text corpora.',
  'BERT is a pretrained transformer encoder for language understanding.',
  'Tax law changed the deduction rules for small businesses.',
  'Small business owners face new tax deduction limits.',
];

describe('LsaEmbedder', () => {
  it('refuses to embed before fitting', async () => {
    await expect(new LsaEmbedder({ dimensions: 4 }).embed(['x'], 'query')).rejects.toThrow(/not been fitted/);
  });

  it('puts topical neighbours close, is normalised, deterministic and survives save/load', async () => {
    const lsa = new LsaEmbedder({ dimensions: 4 }).fit(CORPUS);
    const [q] = await lsa.embed(['antibiotic dose for a dog'], 'query');
    const docs = await lsa.embed(CORPUS, 'passage');
    const scores = docs.map((d) => dot(q!, d));
    expect(scores.indexOf(Math.max(...scores))).toBeLessThan(2);
    expect(dot(docs[0]!, docs[0]!)).toBeCloseTo(1, 5);
    const again = new LsaEmbedder({ dimensions: 4 }).fit(CORPUS);
    expect(again.id).toBe(lsa.id);
    const loaded = LsaEmbedder.fromJSON(JSON.parse(JSON.stringify(lsa.toJSON())));
    expect(loaded.id).toBe(lsa.id);
    expect([...(await loaded.embed(['antibiotic dose for a dog'], 'query'))[0]!]).toEqual([...q!]);
  });

  it.each(['tfidf', 'bm25'] as const)(
    '%s weighting: the fitted passages\' embeddings equal embed(texts, "passage"), once',
    async (weighting) => {
      const lsa = new LsaEmbedder({ dimensions: 4, weighting }).fit(CORPUS);
      const fitted = lsa.takeFittedEmbeddings();
      expect(fitted?.map((v) => [...v])).toEqual((await lsa.embed(CORPUS, 'passage')).map((v) => [...v]));
      expect(lsa.takeFittedEmbeddings()).toBeNull();
      // BM25 weighting embeds a query by idf alone: with a repeated word, passage and query differ.
      const text = 'amoxicillin amoxicillin amoxicillin infection in dogs';
      const [asQuery] = await lsa.embed([text], 'query');
      const [asPassage] = await lsa.embed([text], 'passage');
      const same = [...(asQuery as Float32Array)].every((x, i) => x === asPassage?.[i]);
      expect(same).toBe(weighting === 'tfidf');
      const loaded = LsaEmbedder.fromJSON(JSON.parse(JSON.stringify(lsa.toJSON())));
      expect(loaded.id).toBe(lsa.id);
      expect([...((await loaded.embed([CORPUS[1] as string], 'passage'))[0] as Float32Array)]).toEqual([
        ...(fitted![1] as Float32Array),
      ]);
    },
  );

  it('gives a zero vector for a text with no known words and rejects an empty corpus', async () => {
    const lsa = new LsaEmbedder({ dimensions: 3 }).fit(CORPUS);
    expect([...(await lsa.embed(['zzz qqq'], 'query'))[0]!].every((x) => x === 0)).toBe(true);
    expect(() => new LsaEmbedder().fit(['the of and'])).toThrow(/no indexable words/);
  });
});

describe('HashedEmbedder', () => {
  it('is corpus-free, normalised and topical', async () => {
    const e = new HashedEmbedder({ dimensions: 512 });
    const [a, b, c] = await e.embed([CORPUS[0]!, CORPUS[1]!, CORPUS[4]!], 'passage');
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });
});

describe('createEmbedder', () => {
  it.each([
    ['default', 'lsa-256', true],
    ['lsa:64', 'lsa-64', true],
    ['hashed:128', 'hashed-128-c4-b', false],
  ])('%s → %s', (spec, id, fit) => {
    const e = createEmbedder(spec);
    expect(e.id).toBe(id);
    expect(needsFitting(e)).toBe(fit);
  });

  it.each([
    ['word2vec:x', /unknown kind/],
    ['lsa:1', /bad dimension count/],
    ['openai-compatible:nope', /<base-url>#<model>/],
    ['openai:text-embedding-3-small', /OPENAI_API_KEY is not set/],
    ['transformers:/no/such/folder', /No model folder/],
    ['transformers:/x?pooling=max', /pooling "max"/],
  ])('rejects %s', (spec, message) => {
    expect(() => createEmbedder(spec, { env: {} })).toThrow(message);
  });
});

describe('OpenAI-compatible embedder', () => {
  let server: FakeOpenAiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('batches, caches per text, applies prefixes and normalises', async () => {
    server = await new FakeOpenAiServer({ embeddingDimensions: 16 }).start();
    const cache = new ResponseCache(':memory:');
    const spec = `openai-compatible:${server.url}/v1#e5-small?query-prefix=query:%20`;
    const e = createEmbedder(spec, { cache });
    const texts = Array.from({ length: 5 }, (_, i) => `passage number ${i}`);
    const first = await (createEmbedder(spec, { cache, concurrency: 1 }) as typeof e).embed(texts, 'passage');
    expect(first).toHaveLength(5);
    expect(e.dimensions === 0 || e.dimensions === 16).toBe(true);
    expect(dot(first[0]!, first[0]!)).toBeCloseTo(1, 5);
    const again = await e.embed([...texts, 'a new one'], 'passage');
    expect([...again[2]!]).toEqual([...first[2]!]);
    expect(server.embeddingRequests.map((r) => r.input.length)).toEqual([5, 1]);
    await e.embed(['what is it?'], 'query');
    expect(server.embeddingRequests.at(-1)?.input).toEqual(['query: what is it?']);
  });

  it('splits into batches of batchSize', async () => {
    server = await new FakeOpenAiServer().start();
    const { OpenAiCompatibleEmbedder } = await import('./openai-compatible.js');
    const e = new OpenAiCompatibleEmbedder({ baseUrl: `${server.url}/v1`, model: 'm', batchSize: 2 });
    await e.embed(['a', 'b', 'c', 'd', 'e'], 'passage');
    expect(server.embeddingRequests.map((r) => r.input.length).sort()).toEqual([1, 2, 2]);
    expect(e.dimensions).toBe(32);
  });

  it('rejects with the reason when the server keeps failing', async () => {
    server = await new FakeOpenAiServer().start();
    const e = createEmbedder(`openai-compatible:http://127.0.0.1:1/v1#m`, { maxAttempts: 2, retryBaseMs: 1 });
    await expect(e.embed(['a'], 'passage')).rejects.toThrow(
      /Embedding 1 text\(s\) with openai-compatible:m failed: network error[\s\S]*gave up after 2/,
    );
    expect(faults).toBeDefined();
  });
});

describe('transformers embedder (with an injected pipeline)', () => {
  const folder = (name: string, hidden = 4) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'citegeist-onnx-')), name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ hidden_size: hidden }));
    return dir;
  };
  const recording = () => {
    const calls: { texts: string[]; options: unknown }[] = [];
    const extractor: FeatureExtractor = async (texts, options) => {
      calls.push({ texts, options });
      return { data: Float32Array.from(texts.flatMap((_, i) => [3, 4, 0, i])), dims: [texts.length, 4] };
    };
    return { calls, extractor };
  };

  it.each([
    ['bge-small-en-v1.5', 'query', 'Represent this sentence for searching relevant passages: q', 'cls', true],
    ['bge-small-en-v1.5', 'passage', 'q', 'cls', true],
    ['e5-small-v2', 'query', 'query: q', 'mean', true],
    ['e5-small-v2', 'passage', 'passage: q', 'mean', true],
    ['all-MiniLM-L6-v2', 'query', 'q', 'mean', true],
    ['contriever-msmarco', 'query', 'q', 'mean', false],
  ] as const)(
    '%s as %s: input %j, pooling %s, normalised %s',
    async (name, role, input, pooling, normalized) => {
      const { calls, extractor } = recording();
      const e = createEmbedder(`transformers:${folder(name)}`, { extractor });
      const [v] = await e.embed(['q'], role);
      expect(calls[0]).toEqual({ texts: [input], options: { pooling, normalize: false } });
      expect(e.normalized).toBe(normalized);
      const want = normalized ? [0.6, 0.8, 0, 0] : [3, 4, 0, 0];
      for (const [i, x] of want.entries()) expect(v![i]).toBeCloseTo(x, 6);
    },
  );

  it('lets the spec override the preset and splits batches', async () => {
    const { calls, extractor } = recording();
    const e = createEmbedder(`transformers:${folder('my-model')}?preset=e5&pooling=cls&normalize=false`, {
      extractor,
    });
    expect(e.id).toBe('transformers:my-model?preset=e5&pooling=cls&normalize=false');
    const out = await e.embed(
      Array.from({ length: 40 }, (_, i) => `t${i}`),
      'passage',
    );
    expect(out).toHaveLength(40);
    expect(calls.map((c) => c.texts.length)).toEqual([32, 8]);
    expect(out[33]![3]).toBe(1);
  });

  it('names the install command when @huggingface/transformers is missing', async () => {
    const e = createEmbedder(`transformers:${folder('bge-base')}`);
    await expect(e.embed(['x'], 'query')).rejects.toThrow(/npm install @huggingface\/transformers@4\.3\.2/);
  });
});
