/** BM25 term weighting for `weighting: 'bm25'` (the index's own k1 and b). */
const LSA_BM25 = { k1: 0.9, b: 0.4 };

/**
 * The weighted terms of one text for the LSA embedder: its in-vocabulary columns in order of
 * first occurrence (`add`), then their weights (`weigh`), in typed arrays reused from text to
 * text. The fit's term matrix and `embed` both weigh here, so a passage gets the same weights,
 * summed in the same order, either way.
 */
export class RowWeights {
  private readonly counts: Uint32Array;
  /** The text's distinct columns, first occurrence first: `columns[0, size)`. */
  columns = new Int32Array(256);
  /** After `weigh`: the weight of `columns[k]` at `weights[k]`. */
  weights = new Float64Array(256);
  size = 0;

  constructor(columns: number) {
    this.counts = new Uint32Array(columns);
  }

  /** Starts the next text. */
  start(): void {
    this.size = 0;
  }

  /** Counts one occurrence of column `c`. */
  add(c: number): void {
    const counts = this.counts;
    if (counts[c] === 0) {
      if (this.size === this.columns.length) this.grow();
      this.columns[this.size++] = c;
    }
    counts[c] = (counts[c] as number) + 1;
  }

  /**
   * Weighs the counted columns of a text of `length` terms (in vocabulary or not), L2-normalised:
   * sublinear tf × idf (`bm25` false), or BM25's idf · tf·(k1+1)/(tf + k1·(1−b+b·|d|/avgdl)) for
   * a passage and idf alone for each distinct query term (`avgLength` null). Clears the counts.
   */
  weigh(length: number, idf: Float32Array, bm25: boolean, avgLength: number | null): void {
    const { counts, columns, weights } = this;
    const { k1, b } = LSA_BM25;
    const norm = avgLength === null ? 0 : k1 * (1 - b + (b * length) / avgLength);
    let sum = 0;
    for (let k = 0; k < this.size; k++) {
      const c = columns[k] as number;
      const n = counts[c] as number;
      counts[c] = 0;
      const w = bm25
        ? (idf[c] as number) * (avgLength === null ? 1 : (n * (k1 + 1)) / (n + norm))
        : (1 + Math.log(n)) * (idf[c] as number);
      weights[k] = w;
      sum += w * w;
    }
    const l2 = Math.sqrt(sum) || 1;
    for (let k = 0; k < this.size; k++) weights[k] = (weights[k] as number) / l2;
  }

  private grow(): void {
    const columns = new Int32Array(2 * this.columns.length);
    columns.set(this.columns);
    this.columns = columns;
    this.weights = new Float64Array(columns.length);
  }
}
