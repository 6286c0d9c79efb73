/**
 * Dense retrieval at 50,000 × 384 unit vectors, 200 queries, k = 10.
 * Exact: usearch's native `exactSearch` and the blocked pure-JS kernel (both batched) against a
 * naive per-query JS loop, all in the same run. ANN: usearch HNSW and hnswlib-node HNSW (the
 * product's `AnnIndex`), build time, ms/query and recall@10 vs exact, on uniform random vectors
 * (the worst case for graph indexes) and on clustered Gaussian vectors (closer to real embeddings).
 * ANN sets default to 10,000 vectors: HNSW builds of 50,000 × 384 take minutes here (docs/retrieval.md).
 * `DENSE_BENCH_N` / `DENSE_BENCH_ANN_N` override the sizes.
 */
import { Index, MetricKind, ScalarKind } from 'usearch';
import { ANN_DEFAULTS, AnnIndex, ExactIndex, normalizeRows } from '../src/retrieve/index.js';

const N = Number(process.env.DENSE_BENCH_N ?? 50_000);
const ANN_N = Number(process.env.DENSE_BENCH_ANN_N ?? 10_000);
const D = 384;
const Q = 200;
const K = 10;

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

/** Uniform in [−0.5, 0.5)^D, normalised. */
function uniform(n: number, seed: number): Float32Array {
  const rand = lcg(seed);
  const out = new Float32Array(n * D);
  for (let i = 0; i < out.length; i++) out[i] = rand() - 0.5;
  return normalizeRows(out, D);
}

/** `clusters` Gaussian blobs around random centres (noise σ per coordinate), normalised. */
function clustered(n: number, seed: number, centres: Float32Array, sigma = 0.07): Float32Array {
  const rand = lcg(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
  const clusters = centres.length / D;
  const out = new Float32Array(n * D);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(rand() * clusters) * D;
    for (let j = 0; j < D; j++) out[i * D + j] = (centres[c + j] as number) + sigma * gauss();
  }
  return normalizeRows(out, D);
}

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const out = f();
  return [out, performance.now() - t0];
}

function recall(truth: { index: number }[][], got: { index: number }[][]): number {
  let hit = 0;
  truth.forEach((t, i) => {
    const g = new Set(got[i]?.map((h) => h.index));
    hit += t.filter((h) => g.has(h.index)).length;
  });
  return hit / (truth.length * K);
}

function rows(flat: Float32Array, n: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => flat.subarray(i * D, (i + 1) * D));
}

function sameLists(a: { index: number }[][], b: { index: number }[][]): number {
  return a.filter((hits, i) => hits.map((h) => h.index).join() === b[i]?.map((h) => h.index).join()).length;
}

function benchExact(data: Float32Array, queries: Float32Array[]): void {
  const native = new ExactIndex(data, D, 'native');
  const js = new ExactIndex(data, D, 'js');
  native.search(queries.slice(0, 8), K);
  js.search(queries.slice(0, 8), K);
  const [truth, nativeMs] = time(() => native.search(queries, K));
  const [jsHits, jsMs] = time(() => js.search(queries, K));
  const nNaive = 20;
  const [naiveHits, naiveMs] = time(() => queries.slice(0, nNaive).map((q) => js.searchNaive(q, K)));
  const per = (ms: number, n = Q) => ms / n;
  const naive = per(naiveMs, nNaive);
  console.log(
    `exact ${N} x ${D}, ${Q} queries batched: native ${per(nativeMs).toFixed(2)} ms/query, js blocked ${per(jsMs).toFixed(2)} ms/query, naive per-query loop ${naive.toFixed(2)} ms/query (goal <= 8 ms/query)`,
  );
  console.log(
    `exact speed-up vs naive: native ${(naive / per(nativeMs)).toFixed(1)}x, js blocked ${(naive / per(jsMs)).toFixed(1)}x; identical top-${K} lists: js vs native ${sameLists(jsHits, truth)}/${Q}, js vs naive ${sameLists(jsHits.slice(0, nNaive), naiveHits)}/${nNaive}`,
  );
}

function benchAnn(label: string, data: Float32Array, queries: Float32Array[]): void {
  const n = data.length / D;
  const truth = new ExactIndex(data, D, 'native').search(queries, K);
  const { m, efConstruction, efSearch } = ANN_DEFAULTS;
  const [us, usBuild] = time(() => {
    const index = new Index({
      dimensions: D,
      metric: MetricKind.IP,
      quantization: ScalarKind.F32,
      connectivity: m,
      expansion_add: efConstruction,
      expansion_search: efSearch,
      multi: false,
    });
    // One batch call with the whole matrix: usearch inserts on all cores.
    index.add(
      BigUint64Array.from({ length: n }, (_, i) => BigInt(i)),
      data,
      0,
    );
    return index;
  });
  const [usHits, usMs] = time(() =>
    queries.map((q) => Array.from(us.search(q, K, 1).keys, (key) => ({ index: Number(key) }))),
  );
  const [hn, hnBuild] = time(() => new AnnIndex(data, D));
  const [hnHits, hnMs] = time(() => hn.search(queries, K));
  const params = `M=${m}, efC=${efConstruction}, ef=${efSearch}`;
  for (const [name, build, ms, hits] of [
    ['usearch HNSW', usBuild, usMs, usHits],
    ['hnswlib-node HNSW (AnnIndex)', hnBuild, hnMs, hnHits],
  ] as const) {
    console.log(
      `${label} ${n} x ${D}: ${name} (${params}): build ${(build / 1000).toFixed(1)} s, ${(ms / Q).toFixed(3)} ms/query, recall@10 ${recall(truth, hits).toFixed(4)}`,
    );
  }
}

export default async function (): Promise<void> {
  const data = uniform(N, 1);
  benchExact(data, rows(uniform(Q, 2), Q));
  benchAnn('uniform', data.subarray(0, ANN_N * D), rows(uniform(Q, 2), Q));
  const centres = uniform(100, 3);
  const both = clustered(ANN_N + Q, 4, centres);
  benchAnn('clustered (100 Gaussian blobs)', both.subarray(0, ANN_N * D), rows(both.subarray(ANN_N * D), Q));
}
