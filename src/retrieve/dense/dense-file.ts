import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { AppendFile, appendToCopy, PageFile } from '../common/page-file.js';
import { TopK } from '../common/top-k.js';
import { AnnIndex } from './ann-index.js';
import type { DenseMode } from './dense-index.js';
import { ExactIndex, normalizeRows } from './exact-index.js';

export const DENSE_FILES = { header: 'dense.json', vectors: 'dense.f32' } as const;

/** Vectors kept in memory after the first search when they take at most this many bytes. */
export const DENSE_CACHE_BYTES = 1 << 30;
/** Rows scanned per read when the vectors are larger than the cache. */
export const DENSE_CHUNK_ROWS = 65_536;

interface DenseHeader {
  format: 3;
  embedderId: string;
  dimensions: number;
  count: number;
}

/** Appends L2-normalised vectors to `dense.f32` as they are embedded; the header is written last. */
export class DenseFileWriter {
  private readonly out: AppendFile;
  count = 0;
  dimensions: number | null = null;

  /**
   * A new vectors file in `dir`, or, with `from`, a copy of an earlier generation's (its `count`
   * vectors of `dimensions`) that new vectors are appended to; the earlier file is not touched.
   */
  constructor(
    private readonly dir: string,
    from?: { dir: string; count: number; dimensions: number },
  ) {
    const path = join(dir, DENSE_FILES.vectors);
    if (from) {
      const length = from.count * from.dimensions * 4;
      this.out = appendToCopy(join(from.dir, DENSE_FILES.vectors), path, length);
      this.count = from.count;
      this.dimensions = from.dimensions;
    } else this.out = new AppendFile(path);
  }

  add(vectors: readonly Float32Array[]): void {
    for (const v of vectors) {
      this.dimensions ??= v.length;
      if (v.length !== this.dimensions) {
        throw new CitegeistError(
          'INDEX_EMBEDDER_MISMATCH',
          `The embedder returned a ${v.length}-d vector after ${this.dimensions}-d ones.`,
          'Check the embedder configuration.',
        );
      }
      this.out.writeArray(normalizeRows(Float32Array.from(v), v.length || 1));
      this.count++;
    }
  }

  /** Appends the `count` vectors of `dimensions` another writer left in `dir` (a shard of a build). */
  appendFrom(dir: string, count: number, dimensions: number): void {
    this.dimensions ??= dimensions;
    if (dimensions !== this.dimensions && count > 0) {
      throw new CitegeistError(
        'INDEX_EMBEDDER_MISMATCH',
        `A shard holds ${dimensions}-d vectors after ${this.dimensions}-d ones.`,
        'Check the embedder configuration.',
      );
    }
    this.out.appendFile(join(dir, DENSE_FILES.vectors), count * dimensions * 4);
    this.count += count;
  }

  close(embedderId: string, dimensions: number): void {
    this.out.close();
    const header: DenseHeader = {
      format: 3,
      embedderId,
      dimensions: this.dimensions ?? dimensions,
      count: this.count,
    };
    writeFileSync(join(this.dir, DENSE_FILES.header), `${JSON.stringify(header)}\n`);
  }

  abandon(): void {
    this.out.abandon();
  }
}

/** A persisted HNSW graph of a generation folder (`buildAnnGraph`): its file and the efSearch it was certified at. */
export interface AnnGraphFile {
  file: string;
  efSearch: number;
  dimensions: number;
}

/**
 * Dense vectors read from disk. Exact search scans them in chunks of `DENSE_CHUNK_ROWS` rows with
 * the exact kernel, keeping a bounded top-k heap per query, so no file is read whole and memory
 * stays bounded; vectors up to `DENSE_CACHE_BYTES` are kept after the first search (a run of many
 * queries then scans memory). Up to one chunk, results are those of `DenseIndex` on the same vectors.
 */
export class DiskDenseIndex {
  private readonly file: PageFile;
  private cached: Float32Array | undefined;
  private ann: AnnIndex | undefined;
  private live: { mask: Uint8Array; rows: number } | undefined;
  readonly kind: 'exact' | 'ann';

  private constructor(
    private readonly dir: string,
    readonly embedderId: string,
    readonly dimensions: number,
    readonly size: number,
    private readonly idAt: (row: number) => string,
    private readonly rowOf: (id: string) => number | undefined,
    mode: DenseMode,
    private readonly deadOf: () => Uint8Array | null,
    private readonly chunkRows: number,
    private readonly graph: AnnGraphFile | null,
  ) {
    if (mode === 'ann' && !graph) {
      throw new CitegeistError(
        'INDEX_NO_ANN',
        `The index in ${dir} has no ANN graph; ANN search (dense mode "ann") needs one built with the index.`,
        'Build it with `citegeist index --ann` (or search exactly: dense mode "exact" or "auto").',
      );
    }
    if (graph && graph.dimensions !== dimensions) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `The ANN graph ${join(dir, graph.file)} holds ${graph.dimensions}-d vectors; the index's are ${dimensions}-d.`,
        'Rebuild the index with `citegeist index --rebuild --ann`.',
      );
    }
    this.file = new PageFile(join(dir, DENSE_FILES.vectors));
    if (this.file.size !== size * dimensions * 4) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `${join(dir, DENSE_FILES.vectors)} holds ${this.file.size} bytes; ${size} ${dimensions}-d vectors need ${size * dimensions * 4}.`,
        'Rebuild the index with `citegeist index --rebuild`.',
      );
    }
    // `auto` searches the persisted graph when the index has one, else exactly: a graph is never
    // built on open (minutes at scale).
    this.kind = mode !== 'exact' && graph ? 'ann' : 'exact';
  }

  /** Opens the vectors of `dir`, refusing them when another embedder (or dimension) made them. */
  static open(
    dir: string,
    expected: { id: string; dimensions: number },
    rows: {
      idAt: (row: number) => string;
      rowOf: (id: string) => number | undefined;
      /** Rows of papers removed or replaced since indexing (never returned), or null. */
      dead?: () => Uint8Array | null;
    },
    mode: DenseMode = 'auto',
    /** Rows scanned per read above the cache size (tests make it small to exercise the chunked scan). */
    chunkRows = DENSE_CHUNK_ROWS,
    /** The generation's persisted HNSW graph (the manifest's `ann`), or null: `auto` is then exact. */
    graph: AnnGraphFile | null = null,
  ): DiskDenseIndex {
    const path = join(dir, DENSE_FILES.header);
    let header: DenseHeader;
    try {
      header = JSON.parse(readFileSync(path, 'utf8')) as DenseHeader;
    } catch (error) {
      throw new CitegeistError(
        'INDEX_NO_VECTORS',
        `The index in ${dir} has no dense vectors (${path} cannot be read).`,
        'Rebuild it with `citegeist index --rebuild --embedder <spec>`.',
        { cause: error },
      );
    }
    if (header.embedderId !== expected.id || header.dimensions !== expected.dimensions) {
      throw new CitegeistError(
        'INDEX_EMBEDDER_MISMATCH',
        `Index ${path} was built with embedder ${quoteValue(header.embedderId)} (${header.dimensions}-d); the configured one is ${quoteValue(expected.id)} (${expected.dimensions}-d).`,
        'Rebuild it with `citegeist index --rebuild`, or configure the embedder it was built with.',
      );
    }
    return new DiskDenseIndex(
      dir,
      header.embedderId,
      header.dimensions,
      header.count,
      rows.idAt,
      rows.rowOf,
      mode,
      rows.dead ?? (() => null),
      chunkRows,
      graph,
    );
  }

  /**
   * Rows not tombstoned, counted once per mask (the mask is fixed for an opened index): a search
   * is then not a pass over every row's flag (5M at 100,000 papers) before it starts.
   */
  private liveRows(dead: Uint8Array | null): number {
    if (!dead) return this.size;
    if (this.live?.mask !== dead) {
      let n = 0;
      for (let i = 0; i < dead.length; i++) n += dead[i] as number;
      this.live = { mask: dead, rows: this.size - n };
    }
    return this.live.rows;
  }

  /** The stored (normalised) vector of `row`. */
  vectorAt(row: number): Float32Array {
    return this.rows(row, 1);
  }

  private rows(start: number, count: number): Float32Array {
    const d = this.dimensions;
    if (this.cached) return this.cached.subarray(start * d, (start + count) * d);
    return this.file.float32(start * d * 4, count * d);
  }

  private all(): Float32Array {
    const out = new Float32Array(this.size * this.dimensions);
    for (let start = 0; start < this.size; start += DENSE_CHUNK_ROWS) {
      const count = Math.min(DENSE_CHUNK_ROWS, this.size - start);
      out.set(
        this.file.float32(start * this.dimensions * 4, count * this.dimensions),
        start * this.dimensions,
      );
    }
    return out;
  }

  /**
   * The top k live rows of each query. Tombstoned rows (papers removed or replaced since indexing)
   * are skipped inside the exact scan, per chunk, so the result is what a rebuild without them
   * returns. A persisted graph holds only the rows live when it was built (an update drops it), and
   * is asked to skip tombstones too; a query it cannot fill with k live rows is answered exactly.
   */
  search(queries: readonly Float32Array[], k: number): { index: number; id: string; score: number }[][] {
    const dead = this.deadOf();
    const normalized = queries.map((q) => normalizeRows(Float32Array.from(q), this.dimensions));
    let hits: { index: number; score: number }[][];
    if (this.kind === 'ann' && this.graph) {
      this.ann ??= new AnnIndex({ file: join(this.dir, this.graph.file) }, this.dimensions, {
        efSearch: this.graph.efSearch,
      });
      hits = this.ann.search(normalized, k, dead);
      const want = Math.min(k, this.liveRows(dead));
      const short = hits.flatMap((list, q) => (list.length < want ? [q] : []));
      if (short.length > 0) {
        const exact = this.exactSearch(
          short.map((q) => normalized[q] as Float32Array),
          k,
          dead,
        );
        short.forEach((q, i) => {
          hits[q] = exact[i] as { index: number; score: number }[];
        });
      }
    } else hits = this.exactSearch(normalized, k, dead);
    return hits.map((list) => list.map((h) => ({ index: h.index, id: this.idAt(h.index), score: h.score })));
  }

  private exactSearch(
    normalized: readonly Float32Array[],
    k: number,
    dead: Uint8Array | null,
  ): { index: number; score: number }[][] {
    const d = this.dimensions;
    if (!this.cached && this.size * d * 4 <= DENSE_CACHE_BYTES) this.cached = this.all();
    if (this.size <= this.chunkRows)
      return new ExactIndex(this.rows(0, this.size), d).search(normalized, k, dead);
    const heaps = normalized.map(() => new TopK(Math.min(k, this.size)));
    for (let start = 0; start < this.size; start += this.chunkRows) {
      const count = Math.min(this.chunkRows, this.size - start);
      const skip = dead ? dead.subarray(start, start + count) : null;
      if (skip && !skip.includes(0)) continue;
      const part = new ExactIndex(this.rows(start, count), d).search(normalized, k, skip);
      part.forEach((list, qi) => {
        for (const h of list) heaps[qi]!.push(start + h.index, h.score);
      });
    }
    return heaps.map((h) => h.sorted());
  }

  /** Cosine of the query with the vectors of `ids` (unknown ids are skipped), in the given order. */
  scoreIds(query: Float32Array, ids: readonly string[]): { index: number; id: string; score: number }[] {
    const d = this.dimensions;
    const q = normalizeRows(Float32Array.from(query), d);
    return ids.flatMap((id) => {
      const index = this.rowOf(id);
      if (index === undefined) return [];
      const v = this.rows(index, 1);
      let score = 0;
      for (let j = 0; j < d; j++) score += (v[j] as number) * (q[j] as number);
      return [{ index, id, score }];
    });
  }

  close(): void {
    this.file.close();
  }
}
