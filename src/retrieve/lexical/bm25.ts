import { decodeIndexFile, encodeIndexFile, TopK } from '../common/index.js';
import { type AnalyzerConfig, createAnalyzer, DEFAULT_ANALYZER } from './analyzer.js';
import { averageLength, BM25_DEFAULTS, idfOf, impactWithNorm, lengthNorm } from './bm25-formula.js';

export interface Bm25Params {
  k1: number;
  b: number;
}

export interface Bm25BuildOptions extends Partial<Bm25Params> {
  analyzer?: AnalyzerConfig;
}

const MAGIC = 'CGBM25\n';

export interface Bm25Hit {
  /** Position in `ids`. */
  index: number;
  id: string;
  score: number;
}
const FORMAT_VERSION = 1;

/** The parts of an index; postings are CSR (term → [offsets[t], offsets[t+1]) in docs/tfs). */
interface Bm25Parts {
  ids: string[];
  terms: string[];
  analyzer: AnalyzerConfig;
  docLen: Uint32Array;
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint32Array;
}

/**
 * Okapi BM25 over typed arrays: postings in CSR layout, per-posting impacts precomputed as Float32
 * (idf · tf·(k1+1) / (tf + k1·(1−b+b·dl/avgdl)), idf = ln(1 + (N−df+0.5)/(df+0.5))), queries scored
 * with a dense accumulator and a top-k heap. Serialises to one Buffer whose header records the
 * analyzer (stemming, stop words) so queries are analysed as the documents were.
 */
export class Bm25Index {
  readonly params: Bm25Params;
  private readonly parts: Bm25Parts;
  private readonly vocab: Map<string, number>;
  private readonly impacts: Float32Array;
  private readonly analyze: (text: string) => string[];
  private readonly acc: Float64Array;
  private readonly touched: Uint32Array;
  private forward: { offsets: Uint32Array; terms: Uint32Array; tfs: Uint32Array } | undefined;

  private constructor(parts: Bm25Parts, params: Bm25Params) {
    this.parts = parts;
    this.params = params;
    this.vocab = new Map(parts.terms.map((t, i) => [t, i]));
    this.analyze = createAnalyzer(parts.analyzer);
    this.impacts = computeImpacts(parts, params);
    this.acc = new Float64Array(parts.ids.length);
    this.touched = new Uint32Array(parts.ids.length);
  }

  static build(docs: readonly { id: string; text: string }[], options: Bm25BuildOptions = {}): Bm25Index {
    const analyzer = options.analyzer ?? DEFAULT_ANALYZER;
    const analyze = createAnalyzer(analyzer);
    const vocab = new Map<string, number>();
    const docLen = new Uint32Array(docs.length);
    const triples: number[] = []; // term, doc, tf
    docs.forEach((doc, d) => {
      const tokens = analyze(doc.text);
      docLen[d] = tokens.length;
      const tf = new Map<number, number>();
      for (const tok of tokens) {
        let t = vocab.get(tok);
        if (t === undefined) {
          t = vocab.size;
          vocab.set(tok, t);
        }
        tf.set(t, (tf.get(t) ?? 0) + 1);
      }
      for (const [t, n] of tf) triples.push(t, d, n);
    });
    const numTerms = vocab.size;
    const offsets = new Uint32Array(numTerms + 1);
    for (let i = 0; i < triples.length; i += 3) {
      const t = (triples[i] as number) + 1;
      offsets[t] = (offsets[t] as number) + 1;
    }
    for (let t = 1; t <= numTerms; t++) offsets[t] = (offsets[t] as number) + (offsets[t - 1] as number);
    const empty = new Uint32Array(0);
    const parts = {
      ids: docs.map((d) => d.id),
      terms: [...vocab.keys()],
      analyzer,
      docLen,
      offsets,
      docs: empty,
      tfs: empty,
    };
    return Bm25Index.fromParts(parts, triples, options);
  }

  private static fromParts(parts: Bm25Parts, triples: number[], options: Bm25BuildOptions): Bm25Index {
    const { offsets } = parts;
    const numTerms = parts.terms.length;
    const n = triples.length / 3;
    const docs = new Uint32Array(n);
    const tfs = new Uint32Array(n);
    const fill = offsets.slice(0, numTerms);
    for (let i = 0; i < triples.length; i += 3) {
      const t = triples[i] as number;
      const at = fill[t] as number;
      fill[t] = at + 1;
      docs[at] = triples[i + 1] as number;
      tfs[at] = triples[i + 2] as number;
    }
    return new Bm25Index(
      { ...parts, docs, tfs },
      { k1: options.k1 ?? BM25_DEFAULTS.k1, b: options.b ?? BM25_DEFAULTS.b },
    );
  }

  get size(): number {
    return this.parts.ids.length;
  }

  get ids(): readonly string[] {
    return this.parts.ids;
  }

  get analyzer(): AnalyzerConfig {
    return this.parts.analyzer;
  }

  /** The top k documents (index into `ids`, id, score), best first; ties by lower index. */
  search(query: string, k: number): Bm25Hit[] {
    return this.searchTerms(this.queryTerms(query), k);
  }

  /** The analysed query as term number → count (terms not in the index are dropped). */
  queryTerms(query: string): Map<number, number> {
    const qtf = new Map<number, number>();
    for (const tok of this.analyze(query)) {
      const t = this.vocab.get(tok);
      if (t !== undefined) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    }
    return qtf;
  }

  /** Scores Σ_t w_t · impact(t, d) for weighted term numbers (a query, or an expanded one: RM3). */
  searchTerms(weights: ReadonlyMap<number, number>, k: number): Bm25Hit[] {
    const { offsets, docs } = this.parts;
    const acc = this.acc;
    const touched = this.touched;
    const impacts = this.impacts;
    let nt = 0;
    for (const [t, q] of weights) {
      const end = offsets[t + 1] as number;
      for (let p = offsets[t] as number; p < end; p++) {
        const d = docs[p] as number;
        if (acc[d] === 0) touched[nt++] = d;
        acc[d] = (acc[d] as number) + (impacts[p] as number) * q;
      }
    }
    const top = new TopK(k);
    for (let i = 0; i < nt; i++) {
      const d = touched[i] as number;
      const s = acc[d] as number;
      if (s >= top.threshold) top.push(d, s);
      acc[d] = 0;
    }
    return top.sorted().map(({ index, score }) => ({ index, id: this.parts.ids[index] as string, score }));
  }

  /** The analysed term of a term number. */
  term(t: number): string {
    return this.parts.terms[t] as string;
  }

  /** Number of documents containing term t. */
  documentFrequency(t: number): number {
    return (this.parts.offsets[t + 1] as number) - (this.parts.offsets[t] as number);
  }

  /** A document's terms and their counts (a forward index, built from the postings on first use). */
  documentTerms(d: number): { terms: Uint32Array; tfs: Uint32Array; length: number } {
    this.forward ??= forwardIndex(this.parts);
    const { offsets, terms, tfs } = this.forward;
    const s = offsets[d] as number;
    const e = offsets[d + 1] as number;
    return { terms: terms.subarray(s, e), tfs: tfs.subarray(s, e), length: this.parts.docLen[d] as number };
  }

  /** One Buffer: magic, header JSON (format version, analyzer, k1, b, ids, terms), then the arrays. */
  toBuffer(): Buffer {
    const { ids, terms, analyzer, docLen, offsets, docs, tfs } = this.parts;
    const header = { format: FORMAT_VERSION, analyzer, k1: this.params.k1, b: this.params.b, ids, terms };
    return encodeIndexFile(MAGIC, header, [docLen, offsets, docs, tfs]);
  }

  /** Loads a buffer written by `toBuffer`; `params` may override the recorded k1 and b. */
  static fromBuffer(buf: Buffer, params: Partial<Bm25Params> = {}, source = 'BM25 index'): Bm25Index {
    const file = decodeIndexFile<{
      format: number;
      analyzer: AnalyzerConfig;
      k1: number;
      b: number;
      ids: string[];
      terms: string[];
    }>(buf, { magic: MAGIC, kind: 'BM25 index', source, format: FORMAT_VERSION });
    const { header } = file;
    const docLen = file.uint32(header.ids.length);
    const offsets = file.uint32(header.terms.length + 1);
    const numPostings = offsets[header.terms.length] as number;
    const docs = file.uint32(numPostings);
    const tfs = file.uint32(numPostings);
    return new Bm25Index(
      { ids: header.ids, terms: header.terms, analyzer: header.analyzer, docLen, offsets, docs, tfs },
      { k1: params.k1 ?? header.k1, b: params.b ?? header.b },
    );
  }
}

function computeImpacts(parts: Bm25Parts, { k1, b }: Bm25Params): Float32Array {
  const { docLen, offsets, docs, tfs } = parts;
  const n = docLen.length;
  let total = 0;
  for (const l of docLen) total += l;
  const avgdl = averageLength(total, n);
  const norm = new Float64Array(n);
  for (let d = 0; d < n; d++) norm[d] = lengthNorm(docLen[d] as number, avgdl, k1, b);
  const impacts = new Float32Array(docs.length);
  for (let t = 0; t + 1 < offsets.length; t++) {
    const s = offsets[t] as number;
    const e = offsets[t + 1] as number;
    const idf = idfOf(n, e - s);
    for (let p = s; p < e; p++)
      impacts[p] = impactWithNorm(idf, tfs[p] as number, norm[docs[p] as number] as number, k1);
  }
  return impacts;
}

/** Document → (term, tf) in CSR layout, transposed from the term → document postings. */
function forwardIndex(parts: Bm25Parts): { offsets: Uint32Array; terms: Uint32Array; tfs: Uint32Array } {
  const { docLen, offsets: postingsAt, docs, tfs: postingTfs } = parts;
  const offsets = new Uint32Array(docLen.length + 1);
  for (const d of docs) offsets[d + 1] = (offsets[d + 1] as number) + 1;
  for (let d = 1; d < offsets.length; d++) offsets[d] = (offsets[d] as number) + (offsets[d - 1] as number);
  const fill = offsets.slice(0, docLen.length);
  const terms = new Uint32Array(docs.length);
  const tfs = new Uint32Array(docs.length);
  for (let t = 0; t + 1 < postingsAt.length; t++) {
    for (let p = postingsAt[t] as number; p < (postingsAt[t + 1] as number); p++) {
      const d = docs[p] as number;
      const at = fill[d] as number;
      fill[d] = at + 1;
      terms[at] = t;
      tfs[at] = postingTfs[p] as number;
    }
  }
  return { offsets, terms, tfs };
}
