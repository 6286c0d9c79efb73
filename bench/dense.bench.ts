/**
 * Dense retrieval at 50,000 × 384 random unit vectors: the exact index (native usearch SIMD scan
 * and the blocked pure-JS kernel, queries batched) against a naive per-query JS loop, and the two
 * ANN libraries (usearch HNSW, hnswlib-node HNSW; the product uses hnswlib-node: AnnIndex): build time, ms/query, recall@10 vs exact.
 */
import hnswlib from 'hnswlib-node';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { ExactIndex, normalizeRows } from '../src/retrieve/index.js';

const N = 50_000;
const D = 384;
const Q = 200;
const K = 10;

function random(n: number, seed: number): Float32Array {
  let s = seed;
  const out = new Float32Array(n * D);
  for (let i = 0; i < out.length; i++) {
    s = (s * 16807) % 2147483647;
    out[i] = s / 2147483647 - 0.5;
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

export default async function (): Promise<void> {
  const data = random(N, 1);
  const flatQueries = random(Q, 2);
  const queries = Array.from({ length: Q }, (_, i) => flatQueries.subarray(i * D, (i + 1) * D));
  const native = new ExactIndex(data, D, 'native');
  const js = new ExactIndex(data, D, 'js');
  native.search(queries.slice(0, 4), K);
  js.search(queries.slice(0, 4), K);
  const [truth, nativeMs] = time(() => native.search(queries, K));
  const [jsHits, jsMs] = time(() => js.search(queries, K));
  const nNaive = 20;
  const [, naiveMs] = time(() => queries.slice(0, nNaive).map((q) => js.searchNaive(q, K)));
  const per = (ms: number, n = Q) => ms / n;
  console.log(
    `exact ${N} x ${D}: native batched ${per(nativeMs).toFixed(2)} ms/query, js blocked ${per(jsMs).toFixed(2)} ms/query, naive per-query loop ${per(naiveMs, nNaive).toFixed(2)} ms/query`,
  );
  console.log(
    `exact speed-up vs naive: native ${(per(naiveMs, nNaive) / per(nativeMs)).toFixed(1)}x, js blocked ${(per(naiveMs, nNaive) / per(jsMs)).toFixed(1)}x (goal <= 8 ms/query); js agrees with native: ${recall(truth, jsHits).toFixed(4)}`,
  );

  const [us, usBuild] = time(() => {
    const index = new Index({
      dimensions: D,
      metric: MetricKind.IP,
      quantization: ScalarKind.F32,
      connectivity: 16,
      expansion_add: 64,
      expansion_search: 64,
      multi: false,
    });
    const keys = BigUint64Array.from({ length: N }, (_, i) => BigInt(i));
    index.add(
      keys,
      Array.from({ length: N }, (_, i) => data.subarray(i * D, (i + 1) * D)),
      0,
    );
    return index;
  });
  const [usHits, usMs] = time(() =>
    queries.map((q) => Array.from(us.search(q, K, 0).keys, (key) => ({ index: Number(key) }))),
  );
  const [hn, hnBuild] = time(() => {
    const index = new hnswlib.HierarchicalNSW('ip', D);
    index.initIndex({ maxElements: N, m: 16, efConstruction: 64, randomSeed: 100 });
    for (let i = 0; i < N; i++) index.addPoint(Array.from(data.subarray(i * D, (i + 1) * D)), i);
    index.setEf(64);
    return index;
  });
  const [hnHits, hnMs] = time(() =>
    queries.map((q) => hn.searchKnn(Array.from(q), K).neighbors.map((index) => ({ index }))),
  );
  console.log(
    `usearch HNSW (M=16, efC=64, ef=64): build ${(usBuild / 1000).toFixed(1)} s, ${per(usMs).toFixed(3)} ms/query, recall@10 ${recall(truth, usHits).toFixed(4)}`,
  );
  console.log(
    `hnswlib-node HNSW (M=16, efC=64, ef=64): build ${(hnBuild / 1000).toFixed(1)} s, ${per(hnMs).toFixed(3)} ms/query, recall@10 ${recall(truth, hnHits).toFixed(4)}`,
  );
}
