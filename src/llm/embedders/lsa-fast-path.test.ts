import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../stats/index.js';
import { LsaEmbedder, type LsaModelJson, type LsaWeighting } from './lsa.js';
import { contentTerms, normalize, termOf } from './tokenize.js';
import { WordCodes } from './word-codes.js';

// The LSA embedder reads words in place (`WordCodes`: NFKC skipped for ASCII, a `WordScanner`,
// a `WordTable` of word → vocabulary column) and weighs rows in typed arrays (`RowWeights`).
// These tests hold it to the straightforward reading it replaced, kept here as the reference:
// NFKC, lower case, `/[\p{L}\p{N}]+/gu`, a term per word, a Map of counts, arrays of pairs.

const WORD = /[\p{L}\p{N}]+/gu;

function referenceTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.normalize('NFKC').toLowerCase().match(WORD) ?? []) {
    const t = termOf(word);
    if (t !== null) out.push(t);
  }
  return out;
}

/** The embedding as the embedder computed it before: Map counts, [column, weight] pairs. */
function referenceEmbed(model: LsaModelJson, texts: string[], role: 'passage' | 'query'): Float32Array[] {
  const vocab = new Map(model.vocabulary.map((t, i) => [t, i]));
  const idf = Float32Array.from(model.idf);
  const projection = new Float32Array(new Uint8Array(Buffer.from(model.projection, 'base64')).buffer);
  const d = model.dimensions;
  const bm25 = model.weighting === 'bm25';
  const avgLength = role === 'passage' ? (model.avgLength ?? 1) : null;
  return texts.map((text) => {
    const terms = referenceTerms(text);
    const tf = new Map<number, number>();
    for (const t of terms) {
      const i = vocab.get(t);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    const pairs = [...tf];
    const k1 = 0.9;
    const b = 0.4;
    const norm = avgLength === null ? 0 : k1 * (1 - b + (b * terms.length) / avgLength);
    for (const pair of pairs) {
      const n = pair[1];
      pair[1] = bm25
        ? (idf[pair[0]] as number) * (avgLength === null ? 1 : (n * (k1 + 1)) / (n + norm))
        : (1 + Math.log(n)) * (idf[pair[0]] as number);
    }
    let l2 = 0;
    for (const [, w] of pairs) l2 += w * w;
    l2 = Math.sqrt(l2) || 1;
    for (const pair of pairs) pair[1] /= l2;
    const out = new Float32Array(d);
    for (const [term, weight] of pairs) {
      const o = term * d;
      for (let c = 0; c < d; c++) out[c] = (out[c] as number) + weight * (projection[o + c] as number);
    }
    return normalize(out);
  });
}

/** The vocabulary and idf a fit must choose, from the reference terms (df, then the term). */
function referenceVocabulary(
  texts: string[],
  minDf: number,
  bm25: boolean,
): { vocabulary: string[]; idf: number[] } {
  const df = new Map<string, number>();
  for (const text of texts) for (const t of new Set(referenceTerms(text))) df.set(t, (df.get(t) ?? 0) + 1);
  const rows = texts.length;
  const kept = [...df].filter(([, n]) => n >= minDf).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    vocabulary: kept.map(([t]) => t),
    idf: [
      ...Float32Array.from(
        kept.map(([, n]) =>
          bm25 ? Math.log(1 + (rows - n + 0.5) / (n + 0.5)) : Math.log((1 + rows) / (1 + n)) + 1,
        ),
      ),
    ],
  };
}

/** Each vector's bytes in hex: equal strings are equal bits (0 and −0, NaN included). */
const bits = (vs: Float32Array[]) =>
  vs.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'));

// Words a tokenizer gets wrong in many ways: stop words, plurals (stemming), numbers, NFKC
// folds (ligatures, full-width, superscripts, ª), case folds that change length (İ) or depend on
// context (final sigma), combining marks, astral letters and digits, symbols, lone surrogates,
// runs over 40 units, a no-break space and a zero-width space.
const WORDS = (
  'the of and a in is it to model models modelling language languages retrieval retrieve retrieved ' +
  'passage passages query queries dense sparse vector vectors index indexes indexing score scores ' +
  'paper papers corpus corpora term terms 2019 2020 42 7 3.5 bert transformer transformers'
).split(' ');
const PIECES = [
  'ﬁ',
  'ﬁnd',
  'ﬂow',
  '１２３',
  'Ａｂｃ',
  '²',
  'ª',
  'İstanbul',
  'ΟΔΟΣ',
  'ΟΔΟΣ.',
  'ΣΑΣ',
  'Straße',
  'ǅemal',
  'café',
  'cafe\u0301',
  '𝐀𝐁',
  '𝟙𝟚',
  '😀',
  '\ud800',
  'x\udc00y',
  'a'.repeat(41),
  'b'.repeat(40),
  'é'.repeat(41),
  '中文字',
  '٣٤',
  'Ⅻ',
  '\u00a0',
  '\u200b',
  'MODEL',
  'Models',
];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '\n', '-', "'", ' (', ') '];

/** A seeded corpus of mostly-ASCII passages with the hard pieces sprinkled in. */
function corpus(seed: number, passages: number): string[] {
  const random = createRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const out: string[] = [];
  for (let p = 0; p < passages; p++) {
    const words = 5 + Math.floor(random() * 60);
    const hard = random() < 0.3;
    let text = '';
    for (let w = 0; w < words; w++) {
      text += hard && random() < 0.15 ? pick(PIECES) : pick(WORDS);
      text += pick(SEPARATORS);
    }
    out.push(text);
  }
  return out;
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(...WORDS, ...PIECES, ...SEPARATORS),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('WordCodes', () => {
  it('reads the terms contentTerms and the reference reading find, in order, table full or not', () => {
    const full = new WordCodes((t) => t.length, 3);
    const intern = new Map<string, number>();
    const names: string[] = [];
    const codes = new WordCodes((t) => {
      let id = intern.get(t);
      if (id === undefined) {
        id = names.length;
        intern.set(t, id);
        names.push(t);
      }
      return id;
    });
    fc.assert(
      fc.property(text, (s) => {
        const want = referenceTerms(s);
        expect(contentTerms(s)).toEqual(want);
        const n = codes.codes(s);
        expect([...codes.out.subarray(0, n)].map((id) => names[id])).toEqual(want);
        const m = full.codes(s);
        expect([...full.out.subarray(0, m)]).toEqual(want.map((t) => t.length));
      }),
      { numRuns: 3000, seed: 30 },
    );
  });
});

describe('LsaEmbedder fast path', () => {
  const passages = corpus(30, 400);
  const queries = corpus(31, 60);

  // 7 and 5 dimensions: the components past the last multiple of four are summed on their own.
  for (const [weighting, dimensions] of [
    ['tfidf', 8],
    ['bm25', 8],
    ['tfidf', 7],
    ['bm25', 5],
  ] as [LsaWeighting, number][]) {
    it(`fits the reference vocabulary and embeds bit for bit as the reference (${weighting}, ${dimensions} dimensions)`, async () => {
      const lsa = new LsaEmbedder({ dimensions, weighting }).fit(passages);
      const fitted = lsa.takeFittedEmbeddings();
      const model = lsa.toJSON();
      const want = referenceVocabulary(passages, 2, weighting === 'bm25');
      expect(model.vocabulary).toEqual(want.vocabulary);
      expect(model.idf).toEqual(want.idf);

      const passageVectors = bits(referenceEmbed(model, passages, 'passage'));
      expect(bits(fitted ?? [])).toEqual(passageVectors);
      expect(bits(await lsa.embed(passages, 'passage'))).toEqual(passageVectors);
      expect(bits(await lsa.embed(queries, 'query'))).toEqual(bits(referenceEmbed(model, queries, 'query')));

      const restored = LsaEmbedder.fromJSON(model);
      expect(restored.id).toBe(lsa.id);
      expect(bits(await restored.embed(passages, 'passage'))).toEqual(passageVectors);

      await fc.assert(
        fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), async (texts) => {
          for (const role of ['passage', 'query'] as const)
            expect(bits(await lsa.embed(texts, role))).toEqual(bits(referenceEmbed(model, texts, role)));
        }),
        { numRuns: 300, seed: 31 },
      );
    });
  }

  it('fits the same model and vectors as the implementation it replaced', async () => {
    // Digests printed by the embedder before the fast path (main at 8727198) for this corpus.
    const digest = (lsa: LsaEmbedder, vectors: Float32Array[]) => {
      const h = createHash('sha256').update(JSON.stringify(lsa.toJSON()));
      for (const v of vectors) h.update(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      return `${lsa.id} ${h.digest('hex').slice(0, 16)}`;
    };
    const got: string[] = [];
    for (const weighting of ['tfidf', 'bm25'] as LsaWeighting[]) {
      const lsa = new LsaEmbedder({ dimensions: 8, weighting }).fit(passages);
      got.push(
        digest(lsa, [...(await lsa.embed(passages, 'passage')), ...(await lsa.embed(queries, 'query'))]),
      );
    }
    expect(got).toEqual(['lsa-8@b896d4b7 1b67dad4e9f43f01', 'lsa-bm25-8@56444e45 f0be8b7b9269cf41']);
  });
});
