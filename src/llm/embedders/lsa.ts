import { CitegeistError } from '../../core/index.js';
import { withRoom } from '../../text/index.js';
import type { Embedder, EmbedRole } from '../embedder.js';
import { RowWeights } from './lsa-weights.js';
import { type Csr, randomizedSvd } from './svd.js';
import { fnv1a, normalize } from './tokenize.js';
import { WordCodes } from './word-codes.js';

export interface LsaOptions {
  /** Latent dimensions (default 256). */
  dimensions?: number;
  /** Terms must occur in at least this many passages (default 2; 1 for tiny corpora). */
  minDf?: number;
  /** Keep at most this many terms, the most frequent by document frequency (default 100,000). */
  maxTerms?: number;
  /** Exponent on the singular values when mapping into the latent space (default 0.5). */
  sigmaPower?: number;
  seed?: number;
  powerIterations?: number;
  /**
   * How a passage's terms are weighted before the SVD: `tfidf` (default: sublinear tf × smoothed
   * idf) or `bm25` (BM25's saturated, length-normalised tf × BM25 idf, k1 0.9, b 0.4; a query's
   * terms get idf only), both L2-normalised.
   */
  weighting?: LsaWeighting;
}

export type LsaWeighting = 'tfidf' | 'bm25';

/** What a fitted LSA model persists (see `LsaEmbedder.toJSON` / `fromJSON`). */
export interface LsaModelJson {
  format: 'citegeist-lsa-1';
  dimensions: number;
  sigmaPower: number;
  vocabulary: string[];
  idf: number[];
  /** Row-major vocabulary × dimensions, base64 of little-endian float32. */
  projection: string;
  sigma: number[];
  /** Absent in models saved before BM25 weighting existed: `tfidf`. */
  weighting?: LsaWeighting;
  /** Mean passage length in terms, for `bm25` weighting. */
  avgLength?: number;
}

/**
 * Latent semantic analysis fitted on the corpus being indexed: TF-IDF (sublinear tf, smoothed
 * idf, L2-normalised) followed by a truncated SVD. A text maps to Vᵀ·x scaled by σ^sigmaPower,
 * then L2-normalised. Needs no download; must be fitted (`fit`) before `embed`, and the fitted
 * model is persisted with the index (`toJSON`). Queries and passages are embedded alike.
 */
export class LsaEmbedder implements Embedder {
  readonly normalized = true;
  readonly dimensions: number;
  private readonly options: Required<LsaOptions>;
  private model:
    | {
        vocab: Map<string, number>;
        idf: Float32Array;
        projection: Float32Array;
        sigma: Float32Array;
        fingerprint: string;
        avgLength: number;
        /** A text's words → vocabulary columns (−1: not in it), remembered per word. */
        words: WordCodes;
        row: RowWeights;
      }
    | undefined;
  private fittedMatrix: Csr | undefined;

  constructor(options: LsaOptions = {}) {
    this.options = {
      dimensions: options.dimensions ?? 256,
      minDf: options.minDf ?? 2,
      maxTerms: options.maxTerms ?? 100_000,
      sigmaPower: options.sigmaPower ?? 0.5,
      seed: options.seed ?? 1,
      powerIterations: options.powerIterations ?? 2,
      weighting: options.weighting ?? 'tfidf',
    };
    this.dimensions = this.options.dimensions;
  }

  /** "lsa-256" (or "lsa-bm25-256") before fitting; "…@<fingerprint of the fitted model>" after. */
  get id(): string {
    const base = `lsa-${this.options.weighting === 'bm25' ? 'bm25-' : ''}${this.dimensions}`;
    return this.model ? `${base}@${this.model.fingerprint}` : base;
  }

  get fitted(): boolean {
    return this.model !== undefined;
  }

  /**
   * The passage embeddings of the texts `fit` was given, in order, from the term matrix the fit
   * already built: the same vectors as `embed(texts, 'passage')` (same weights, same summation
   * order) without tokenising the corpus a second time. Available once after each fit.
   */
  takeFittedEmbeddings(): Float32Array[] | null {
    const matrix = this.fittedMatrix;
    const model = this.model;
    this.fittedMatrix = undefined;
    if (!matrix || !model) return null;
    const d = this.dimensions;
    const out: Float32Array[] = [];
    for (let r = 0; r < matrix.rows; r++) {
      const from = matrix.indptr[r] as number;
      const to = matrix.indptr[r + 1] as number;
      out.push(normalize(project(matrix.indices, matrix.values, from, to, model.projection, d)));
    }
    return out;
  }

  /** Fits vocabulary, idf and the SVD on the corpus passages. */
  fit(texts: readonly string[]): this {
    const docs = numberTerms(texts);
    const rows = docs.offsets.length - 1;
    const minDf = rows < 50 ? 1 : this.options.minDf;
    const kept = docs.terms
      .map((t, id) => [t, docs.df[id] as number] as [string, number])
      .filter(([, n]) => n >= minDf)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.options.maxTerms);
    const vocab = new Map(kept.map(([t], i) => [t, i]));
    const bm25 = this.options.weighting === 'bm25';
    const idf = new Float32Array(kept.length);
    for (const [i, [, n]] of kept.entries())
      idf[i] = bm25 ? Math.log(1 + (rows - n + 0.5) / (n + 0.5)) : Math.log((1 + rows) / (1 + n)) + 1;
    const avgLength = docs.ids.length / (rows || 1) || 1;
    const column = new Int32Array(docs.terms.length).fill(-1);
    for (const [t, i] of vocab) column[docs.idOf.get(t) as number] = i;
    const matrix = this.termMatrix(docs, column, idf, avgLength);
    this.fittedMatrix = matrix;
    if (kept.length === 0 || rows === 0) {
      throw new CitegeistError(
        'CORPUS_EMPTY',
        `The LSA embedder was fitted on ${rows} passage(s) with no indexable words.`,
        'Index a corpus with text in it, or choose another embedder.',
      );
    }
    const svd = randomizedSvd(matrix, this.dimensions, {
      seed: this.options.seed,
      powerIterations: this.options.powerIterations,
    });
    const projection = new Float32Array(kept.length * this.dimensions);
    for (let r = 0; r < kept.length; r++) {
      for (let c = 0; c < svd.k; c++) {
        const scale = (svd.sigma[c] as number) ** this.options.sigmaPower;
        projection[r * this.dimensions + c] = (svd.v[r * svd.k + c] as number) * scale;
      }
    }
    const sigma = new Float32Array(this.dimensions);
    sigma.set(svd.sigma);
    this.model = {
      vocab,
      idf,
      projection,
      sigma,
      fingerprint: fingerprint(
        kept.map(([t]) => t),
        projection,
      ),
      avgLength,
      ...readers(vocab),
    };
    return this;
  }

  async embed(texts: string[], role: EmbedRole): Promise<Float32Array[]> {
    const model = this.model;
    if (!model) {
      throw new CitegeistError(
        'EMBEDDER_NOT_FITTED',
        `The ${this.id} embedder is fitted on the corpus and has not been fitted yet.`,
        'Call fit(passages) before embed(), or load the fitted model saved with the index.',
      );
    }
    const d = this.dimensions;
    const { words, row, idf, projection } = model;
    const bm25 = this.options.weighting === 'bm25';
    const avgLength = role === 'passage' ? model.avgLength : null;
    return texts.map((text) => {
      const n = words.codes(text);
      const codes = words.out;
      row.start();
      for (let k = 0; k < n; k++) {
        const c = codes[k] as number;
        if (c >= 0) row.add(c);
      }
      row.weigh(n, idf, bm25, avgLength);
      return normalize(project(row.columns, row.weights, 0, row.size, projection, d));
    });
  }

  toJSON(): LsaModelJson {
    const model = this.model;
    if (!model)
      throw new CitegeistError(
        'EMBEDDER_NOT_FITTED',
        `The ${this.id} embedder has no fitted model to save.`,
        'Call fit() first.',
      );
    return {
      format: 'citegeist-lsa-1',
      dimensions: this.dimensions,
      sigmaPower: this.options.sigmaPower,
      vocabulary: [...model.vocab.keys()],
      idf: [...model.idf],
      projection: Buffer.from(
        model.projection.buffer,
        model.projection.byteOffset,
        model.projection.byteLength,
      ).toString('base64'),
      sigma: [...model.sigma],
      ...(this.options.weighting === 'bm25'
        ? { weighting: this.options.weighting, avgLength: model.avgLength }
        : {}),
    };
  }

  static fromJSON(json: LsaModelJson): LsaEmbedder {
    if (json.format !== 'citegeist-lsa-1') {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `Unknown LSA model format ${JSON.stringify(json.format)}.`,
        'Rebuild the index.',
      );
    }
    const e = new LsaEmbedder({
      dimensions: json.dimensions,
      sigmaPower: json.sigmaPower,
      weighting: json.weighting ?? 'tfidf',
    });
    const bytes = Buffer.from(json.projection, 'base64');
    const projection = new Float32Array(new Uint8Array(bytes).buffer);
    if (projection.length !== json.vocabulary.length * json.dimensions) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        'The saved LSA projection does not match its vocabulary.',
        'Rebuild the index.',
      );
    }
    const vocab = new Map(json.vocabulary.map((t, i) => [t, i]));
    e.model = {
      vocab,
      idf: Float32Array.from(json.idf),
      projection,
      sigma: Float32Array.from(json.sigma),
      fingerprint: fingerprint(json.vocabulary, projection),
      avgLength: json.avgLength ?? 1,
      ...readers(vocab),
    };
    return e;
  }

  /**
   * The weighted term matrix of the numbered passages: each row's in-vocabulary terms in order of
   * first occurrence, weighted as `embed` weighs them (same counts, same order, same arithmetic).
   */
  private termMatrix(docs: NumberedTerms, column: Int32Array, idf: Float32Array, avgLength: number): Csr {
    const rows = docs.offsets.length - 1;
    const indptr = new Uint32Array(rows + 1);
    let indices = new Uint32Array(1 << 16);
    let values = new Float64Array(1 << 16);
    let nnz = 0;
    const row = new RowWeights(idf.length);
    const bm25 = this.options.weighting === 'bm25';
    for (let r = 0; r < rows; r++) {
      const from = docs.offsets[r] as number;
      const to = docs.offsets[r + 1] as number;
      row.start();
      for (let p = from; p < to; p++) {
        const c = column[docs.ids[p] as number] as number;
        if (c >= 0) row.add(c);
      }
      row.weigh(to - from, idf, bm25, avgLength);
      indices = withRoom(indices, nnz + row.size);
      values = withRoom(values, indices.length);
      for (let k = 0; k < row.size; k++) {
        indices[nnz] = row.columns[k] as number;
        values[nnz] = row.weights[k] as number;
        nnz++;
      }
      indptr[r + 1] = nnz;
    }
    return { rows, cols: idf.length, indptr, indices: indices.slice(0, nnz), values: values.slice(0, nnz) };
  }
}

/** Passages as numbers: every distinct term numbered as first seen, its document frequency, and each passage's term numbers. */
interface NumberedTerms {
  terms: string[];
  idOf: Map<string, number>;
  df: Uint32Array;
  /** The term numbers of all passages, one after the other; passage r is ids[offsets[r], offsets[r+1]). */
  ids: Int32Array;
  offsets: Uint32Array;
}

/**
 * `contentTerms` of every text, kept as numbers (a few bytes per word, not a string array per
 * passage: at 136,570 passages the arrays' garbage collection cost more than the SVD's products),
 * read in place by `WordCodes` (a term is numbered when first seen, as before).
 */
function numberTerms(texts: readonly string[]): NumberedTerms {
  const idOf = new Map<string, number>();
  const terms: string[] = [];
  const words = new WordCodes((term) => {
    let id = idOf.get(term);
    if (id === undefined) {
      id = terms.length;
      idOf.set(term, id);
      terms.push(term);
    }
    return id;
  });
  let df = new Uint32Array(1 << 12);
  let lastDoc = new Int32Array(1 << 12).fill(-1);
  let ids = new Int32Array(1 << 16);
  const offsets = new Uint32Array(texts.length + 1);
  let n = 0;
  texts.forEach((text, r) => {
    const count = words.codes(text);
    const codes = words.out;
    if (terms.length > df.length) {
      df = withRoom(df, terms.length);
      const seen = lastDoc.length;
      lastDoc = withRoom(lastDoc, df.length);
      lastDoc.fill(-1, seen);
    }
    for (let k = 0; k < count; k++) {
      const id = codes[k] as number;
      if (lastDoc[id] !== r) {
        lastDoc[id] = r;
        df[id] = (df[id] as number) + 1;
      }
      ids = withRoom(ids, n + 1);
      ids[n++] = id;
    }
    offsets[r + 1] = n;
  });
  return { terms, idOf, df: df.subarray(0, terms.length), ids: ids.subarray(0, n), offsets };
}

/**
 * Σₖ weights[k] · projection row columns[k], for k in [from, to), as a float32 vector: each
 * component summed term by term in that order, rounded to float32 after every addition (as
 * adding into a Float32Array does). Four components are summed at a time in locals: the same
 * operations in the same order per component, about twice as fast as adding row after row into
 * the array.
 */
function project(
  columns: ArrayLike<number>,
  weights: ArrayLike<number>,
  from: number,
  to: number,
  projection: Float32Array,
  d: number,
): Float32Array {
  const out = new Float32Array(d);
  let c = 0;
  for (; c + 4 <= d; c += 4) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let k = from; k < to; k++) {
      const o = (columns[k] as number) * d + c;
      const w = weights[k] as number;
      a0 = Math.fround(a0 + w * (projection[o] as number));
      a1 = Math.fround(a1 + w * (projection[o + 1] as number));
      a2 = Math.fround(a2 + w * (projection[o + 2] as number));
      a3 = Math.fround(a3 + w * (projection[o + 3] as number));
    }
    out[c] = a0;
    out[c + 1] = a1;
    out[c + 2] = a2;
    out[c + 3] = a3;
  }
  for (; c < d; c++) {
    let a = 0;
    for (let k = from; k < to; k++)
      a = Math.fround(a + (weights[k] as number) * (projection[(columns[k] as number) * d + c] as number));
    out[c] = a;
  }
  return out;
}

/** A fitted model's readers of texts: words → vocabulary columns (−1: not in it), and a row's weights. */
function readers(vocab: Map<string, number>): { words: WordCodes; row: RowWeights } {
  return { words: new WordCodes((term) => vocab.get(term) ?? -1), row: new RowWeights(vocab.size) };
}

function fingerprint(vocab: string[], projection: Float32Array): string {
  let h = fnv1a(vocab.join('\u0000'));
  const step = Math.max(1, Math.floor(projection.length / 4096));
  for (let i = 0; i < projection.length; i += step) h = fnv1a(String(projection[i]), h);
  return h.toString(16).padStart(8, '0');
}
