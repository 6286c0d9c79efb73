import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
import { skipBecause } from '../../testing/skip-because.js';
import type { Embedder } from '../embedder.js';
import { dynamicImport } from '../optional-module.js';
import { HashedEmbedder } from './hashed.js';
import { LsaEmbedder } from './lsa.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible.js';
import { type FeatureExtractor, TransformersEmbedder } from './transformers.js';

/**
 * The Embedder contract, in the hono style: one suite run against every implementation. An
 * embedder returns one finite vector of `dimensions` numbers per text, in order, unit length when
 * it says `normalized`; the same text gives the same vector; different texts different vectors;
 * no texts, no vectors.
 */
const CORPUS = [
  'graphene membranes filter salt from seawater',
  'protein folding predicted from amino acid sequence',
  'volcanic ash clouds disrupt aviation routes',
  'membrane pores are one nanometre wide',
];

const server = await new FakeOpenAiServer({ embeddingDimensions: 24 }).start();
afterAll(() => server.close());

/** A stand-in for the ONNX pipeline: a vector from the text's characters (the embedder is real). */
const extractor: FeatureExtractor = async (texts) => ({
  data: Float32Array.from(
    texts.flatMap((t) =>
      Array.from({ length: 8 }, (_, d) => 1 + [...t].filter((_, i) => i % 8 === d).length),
    ),
  ),
  dims: [texts.length, 8],
});
const modelFolder = (hidden: number) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'citegeist-contract-')), 'all-MiniLM-L6-v2');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ hidden_size: hidden }));
  return dir;
};

// The real ONNX model runs only where the optional peer dependency and a model folder are present.
const realModel = process.env.CITEGEIST_TEST_ONNX_MODEL;
const hasTransformers = await dynamicImport('@huggingface/transformers').then(
  () => true,
  () => false,
);
const realSkip = !hasTransformers
  ? '@huggingface/transformers (an optional peer dependency) is not installed'
  : !realModel
    ? 'CITEGEIST_TEST_ONNX_MODEL does not name a local ONNX model folder'
    : null;
if (realSkip) console.warn(`skipping the transformers embedder contract on a real model: ${realSkip}`);

const implementations: [string, (() => Embedder) | null, (string | null)?][] = [
  ['HashedEmbedder', () => new HashedEmbedder({ dimensions: 64 })],
  ['LsaEmbedder', () => new LsaEmbedder({ dimensions: 3 }).fit(CORPUS)],
  [
    'OpenAiCompatibleEmbedder (fake server on 127.0.0.1)',
    () => new OpenAiCompatibleEmbedder({ baseUrl: `${server.url}/v1`, model: 'm', batchSize: 2 }),
  ],
  [
    'TransformersEmbedder (injected pipeline)',
    () => new TransformersEmbedder({ folder: modelFolder(8), extractor }),
  ],
  [
    'TransformersEmbedder (real ONNX model)',
    realSkip ? null : () => new TransformersEmbedder({ folder: realModel as string }),
    realSkip,
  ],
];

describe.each(implementations)('Embedder contract: %s', (_name, make, skip) => {
  // Each test skips itself with the reason (an implementation that cannot run here).
  beforeEach(skipBecause(make === null ? (skip ?? 'not available here') : null));

  it(`one finite vector per text, in order${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const embedder = (make as () => Embedder)();
    expect(embedder.id).not.toBe('');
    const vectors = await embedder.embed(CORPUS, 'passage');
    expect(vectors).toHaveLength(CORPUS.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(embedder.dimensions);
      expect(v.every(Number.isFinite)).toBe(true);
      if (embedder.normalized) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
    // In order: each text alone gives the vector it had in the batch.
    const alone = await embedder.embed([CORPUS[2] as string], 'passage');
    expect([...(alone[0] as Float32Array)]).toEqual([...(vectors[2] as Float32Array)]);
  });

  it(`the same text the same vector, different texts different vectors; none for none${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const embedder = (make as () => Embedder)();
    const [a, b, again] = await embedder.embed(
      [CORPUS[0] as string, CORPUS[2] as string, CORPUS[0] as string],
      'query',
    );
    expect([...(again as Float32Array)]).toEqual([...(a as Float32Array)]);
    expect([...(b as Float32Array)]).not.toEqual([...(a as Float32Array)]);
    expect(await embedder.embed([], 'query')).toEqual([]);
  });
});
