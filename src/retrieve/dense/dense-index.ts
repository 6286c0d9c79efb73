import { CitegeistError, quoteValue } from '../../core/index.js';
import { decodeIndexFile, encodeIndexFile } from '../common/index.js';
import { AnnIndex, type AnnOptions } from './ann-index.js';
import { ExactIndex, normalizeRows, type VectorHit, type VectorSearch } from './exact-index.js';

/**
 * Above this many vectors `auto` switches from exact search to the ANN index. The HNSW graph is
 * rebuilt on every open (minutes at 50k here) while exact search costs ≈ 0.3–2 ms/query at 50k
 * (BLAS kernel; a few ms with usearch's scan), so a graph only pays off for very large corpora
 * (measurements in docs/retrieval.md).
 */
export const ANN_THRESHOLD = 1_000_000;

export type DenseMode = 'auto' | 'exact' | 'ann';

const MAGIC = 'CGDENSE\n';
const FORMAT_VERSION = 1;

/**
 * Vectors of one embedder, row-major in one Float32Array, with the ids they belong to. Searches
 * exactly, or with an ANN graph when large (`mode`). Persisted with the embedder id and dimension;
 * loading with another embedder is refused (`INDEX_EMBEDDER_MISMATCH`).
 */
export class DenseIndex {
  private search_: VectorSearch;
  private rows: Map<string, number> | undefined;

  constructor(
    readonly embedderId: string,
    readonly dimensions: number,
    readonly ids: readonly string[],
    readonly vectors: Float32Array,
    readonly mode: DenseMode = 'auto',
    annOptions: AnnOptions = {},
  ) {
    if (vectors.length !== ids.length * dimensions) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `${ids.length} ids need ${ids.length * dimensions} floats at ${dimensions}-d, got ${vectors.length}.`,
        'Rebuild the index.',
      );
    }
    const useAnn = mode === 'ann' || (mode === 'auto' && ids.length > ANN_THRESHOLD);
    this.search_ = useAnn
      ? new AnnIndex(vectors, dimensions, annOptions)
      : new ExactIndex(vectors, dimensions);
  }

  /** Builds from unnormalised vectors (they are copied and L2-normalised); `dimensions` when there may be none. */
  static fromVectors(
    embedderId: string,
    ids: readonly string[],
    vectors: readonly Float32Array[],
    mode: DenseMode = 'auto',
    dimensions?: number,
  ): DenseIndex {
    const d = vectors[0]?.length ?? dimensions ?? 0;
    const data = new Float32Array(ids.length * d);
    vectors.forEach((v, i) => {
      data.set(v, i * d);
    });
    return new DenseIndex(embedderId, d, ids, normalizeRows(data, d || 1), mode);
  }

  get kind(): 'exact' | 'ann' {
    return this.search_ instanceof AnnIndex ? 'ann' : 'exact';
  }

  search(queries: readonly Float32Array[], k: number): { index: number; id: string; score: number }[][] {
    const normalized = queries.map((q) => normalizeRows(Float32Array.from(q), this.dimensions));
    return this.search_
      .search(normalized, k)
      .map((hits: VectorHit[]) =>
        hits.map((h) => ({ index: h.index, id: this.ids[h.index] as string, score: h.score })),
      );
  }

  /** Cosine of the query with the vectors of `ids` (unknown ids are skipped), in the given order. */
  scoreIds(query: Float32Array, ids: readonly string[]): { index: number; id: string; score: number }[] {
    this.rows ??= new Map(this.ids.map((id, i) => [id, i]));
    const q = normalizeRows(Float32Array.from(query), this.dimensions);
    const d = this.dimensions;
    return ids.flatMap((id) => {
      const index = this.rows?.get(id);
      if (index === undefined) return [];
      let score = 0;
      for (let j = 0, o = index * d; j < d; j++) score += (this.vectors[o + j] as number) * (q[j] as number);
      return [{ index, id, score }];
    });
  }

  toBuffer(): Buffer {
    const header = {
      format: FORMAT_VERSION,
      embedderId: this.embedderId,
      dimensions: this.dimensions,
      ids: this.ids,
    };
    return encodeIndexFile(MAGIC, header, [this.vectors]);
  }

  /**
   * Loads a persisted index, refusing one built by another embedder or dimension.
   * `expected` is the embedder configured now.
   */
  static fromBuffer(
    buf: Buffer,
    expected: { id: string; dimensions: number },
    source = 'dense index',
    mode: DenseMode = 'auto',
  ): DenseIndex {
    const file = decodeIndexFile<{ format: number; embedderId: string; dimensions: number; ids: string[] }>(
      buf,
      {
        magic: MAGIC,
        kind: 'dense index',
        source,
        format: FORMAT_VERSION,
      },
    );
    const { header } = file;
    if (header.embedderId !== expected.id || header.dimensions !== expected.dimensions) {
      throw new CitegeistError(
        'INDEX_EMBEDDER_MISMATCH',
        `Index ${source} was built with embedder ${quoteValue(header.embedderId)} (${header.dimensions}-d); the configured one is ${quoteValue(expected.id)} (${expected.dimensions}-d).`,
        'Rebuild it with `citegeist index --rebuild`, or configure the embedder it was built with.',
      );
    }
    const vectors = file.float32(header.ids.length * header.dimensions);
    return new DenseIndex(header.embedderId, header.dimensions, header.ids, vectors, mode);
  }
}
