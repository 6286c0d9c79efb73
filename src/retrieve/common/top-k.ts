/**
 * Keeps the k best (index, score) pairs seen: a binary min-heap on typed arrays. Ties are broken
 * by the lower index, so results are deterministic.
 */
export class TopK {
  private readonly idx: Int32Array;
  private readonly val: Float64Array;
  private size = 0;

  constructor(readonly k: number) {
    this.idx = new Int32Array(Math.max(0, k));
    this.val = new Float64Array(Math.max(0, k));
  }

  /** True when (i, s) ranks below (j, t): lower score, or equal score and higher index. */
  private worse(i: number, s: number, j: number, t: number): boolean {
    return s < t || (s === t && i > j);
  }

  /** The score a candidate must beat to enter (−∞ while not full). */
  get threshold(): number {
    return this.size < this.k ? Number.NEGATIVE_INFINITY : (this.val[0] as number);
  }

  push(index: number, score: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      let c = this.size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!this.worse(index, score, this.idx[p] as number, this.val[p] as number)) break;
        this.idx[c] = this.idx[p] as number;
        this.val[c] = this.val[p] as number;
        c = p;
      }
      this.idx[c] = index;
      this.val[c] = score;
      return;
    }
    if (this.worse(index, score, this.idx[0] as number, this.val[0] as number)) return;
    this.siftDown(index, score);
  }

  private siftDown(index: number, score: number): void {
    let c = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * c + 1;
      if (l >= n) break;
      const r = l + 1;
      let m = l;
      if (
        r < n &&
        this.worse(this.idx[r] as number, this.val[r] as number, this.idx[l] as number, this.val[l] as number)
      )
        m = r;
      if (!this.worse(this.idx[m] as number, this.val[m] as number, index, score)) break;
      this.idx[c] = this.idx[m] as number;
      this.val[c] = this.val[m] as number;
      c = m;
    }
    this.idx[c] = index;
    this.val[c] = score;
  }

  /** The kept pairs, best first. */
  sorted(): { index: number; score: number }[] {
    const out: { index: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++)
      out.push({ index: this.idx[i] as number, score: this.val[i] as number });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}
