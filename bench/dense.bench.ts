/**
 * Dense retrieval at 50,000 × 384 unit vectors, 200 queries, k = 10.
 * Exact: the BLAS kernel (OpenBLAS through koffi), usearch's native `exactSearch` and the blocked
 * pure-JS kernel against numpy's `Q @ X.T` + argpartition on the same data (a python3
 * subprocess), batched and one query at a time, over interleaved passes (min and median, load
 * printed; goal: within 1.5× of numpy). ANN: usearch HNSW and hnswlib-node HNSW (the
 * product's `AnnIndex`), build time, ms/query and recall@10 vs exact, on uniform random vectors
 * (the worst case for graph indexes) and on clustered Gaussian vectors (closer to real embeddings).
 * ANN sets default to 10,000 vectors: HNSW builds of 50,000 × 384 take minutes here (docs/retrieval.md).
 * `DENSE_BENCH_N` / `DENSE_BENCH_ANN_N` override the sizes, `DENSE_BENCH_PASSES` the passes;
 * `DENSE_BENCH_ANN=0` skips the ANN part.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANN_DEFAULTS, AnnIndex, ExactIndex, loadBlas, normalizeRows } from '../src/retrieve/index.js';

/** usearch's HNSW, as far as this bench uses it; usearch is optional (Node ≥ 22), so loaded if there. */
interface UsearchIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  search(query: Float32Array, k: number, threads: number): { keys: ArrayLike<bigint> };
}
interface UsearchModule {
  Index: new (options: Record<string, unknown>) => UsearchIndex;
  MetricKind: { IP: unknown };
  ScalarKind: { F32: unknown };
}
const usearch: UsearchModule | null = (() => {
  try {
    return createRequire(import.meta.url)('usearch') as UsearchModule;
  } catch {
    return null;
  }
})();

import { formatRatio, formatTiming, interleaved, loadAverage, type Timing, timed } from './interleaved.js';

const N = Number(process.env.DENSE_BENCH_N ?? 50_000);
const ANN_N = Number(process.env.DENSE_BENCH_ANN_N ?? 10_000);
const D = 384;
const Q = 200;
const K = 10;
const SINGLE = 30;
const PASSES = Number(process.env.DENSE_BENCH_PASSES ?? 5);

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

/** numpy's exact search on the same data (one Python process per pass), or null when numpy is missing. */
interface NumpyPass {
  batchMs: number;
  /** The matrix product alone, without the top-k selection. */
  productMs: number;
  singleMs: number;
  top: number[][];
}

function numpyPass(dir: string, k: number): NumpyPass | null {
  const script = `
import json, sys, time
import numpy as np
X = np.fromfile('${dir}/x.f32', dtype=np.float32).reshape(-1, ${D})
Q = np.fromfile('${dir}/q.f32', dtype=np.float32).reshape(-1, ${D})
def top(S):
    i = np.argpartition(-S, ${k}, axis=-1)[..., :${k}]
    s = np.take_along_axis(S, i, -1)
    o = np.lexsort((i, -s), axis=-1)
    return np.take_along_axis(i, o, -1)
Q @ X[:1000].T
t = time.perf_counter(); S = Q @ X.T; product = time.perf_counter() - t
T = top(S)
batch = time.perf_counter() - t
t = time.perf_counter()
for q in Q[:${SINGLE}]: top(X @ q)
single = (time.perf_counter() - t) / ${SINGLE}
print(json.dumps({"batchMs": batch * 1000, "productMs": product * 1000, "singleMs": single * 1000, "top": T.tolist()}))
`;
  // OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE are set on this machine for old OpenBLAS builds and slow a
  // current numpy: unset for numpy's process only (its fastest), as the machine's README says.
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const out = spawnSync('python3', ['-c', script], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (out.status !== 0) return null;
  return JSON.parse(out.stdout) as NumpyPass;
}

async function benchExact(data: Float32Array, queries: Float32Array[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-dense-'));
  writeFileSync(join(dir, 'x.f32'), Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const flat = new Float32Array(queries.length * D);
  queries.forEach((q, i) => {
    flat.set(q, i * D);
  });
  writeFileSync(join(dir, 'q.f32'), Buffer.from(flat.buffer));
  const blas = loadBlas();
  const kernels = {
    ...(blas ? { blas: new ExactIndex(data, D, 'blas') } : {}),
    ...(usearch ? { native: new ExactIndex(data, D, 'native') } : {}),
    js: new ExactIndex(data, D, 'js'),
  };
  console.log(
    `exact ${N} × ${D}, k = ${K}: batch of ${Q} queries and ${SINGLE} single queries; ${PASSES} interleaved passes; BLAS: ${blas ? blas.library : 'none loaded (install OpenBLAS: apt-get install libopenblas0-pthread)'}; load before: ${loadAverage()}`,
  );
  for (const index of Object.values(kernels)) index.search(queries.slice(0, 4), K);
  const lists: Record<string, { index: number }[][]> = {};
  let numpyTop: number[][] | null = null;
  let numpyMissing = false;
  const steps: Record<string, () => number> = {};
  for (const [name, index] of Object.entries(kernels)) {
    // The JS kernel is ~10× slower: time it on a fifth of the batch.
    const batch = name === 'js' ? queries.slice(0, Q / 5) : queries;
    steps[`${name} batch`] = () => {
      const t = timed(() => {
        lists[name] = index.search(batch, K);
      });
      return t / batch.length;
    };
    steps[`${name} single`] = () =>
      timed(() => {
        for (const q of queries.slice(0, SINGLE)) index.search([q], K);
      }) / SINGLE;
  }
  let numpySingle = 0;
  let numpyProduct = 0;
  steps['numpy batch'] = () => {
    const r = numpyPass(dir, K);
    if (!r) {
      numpyMissing = true;
      return Number.NaN;
    }
    numpyTop = r.top;
    numpySingle = r.singleMs;
    numpyProduct = r.productMs / Q;
    return r.batchMs / Q;
  };
  steps['numpy product'] = () => numpyProduct;
  steps['numpy single'] = () => numpySingle;
  const t = await interleaved(PASSES, steps);
  console.log(`load after: ${loadAverage()}`);
  for (const name of Object.keys(t)) {
    if (numpyMissing && name.startsWith('numpy')) continue;
    console.log(`  ${name.padEnd(13)} ${formatTiming(t[name] as Timing, 1, 'ms/query')}`);
  }
  if (!numpyMissing) {
    console.log('  (numpy product: `Q @ X.T` alone, without argpartition; numpy batch includes it)');
  }
  const same = (a: { index: number }[][] | undefined, b: number[][]) =>
    (a ?? []).filter((hits, i) => hits.map((h) => h.index).join() === b[i]?.join()).length;
  if (numpyMissing || !numpyTop) {
    console.log(
      'numpy: not importable by python3 here; no reference ratio (the JS kernel is the baseline below)',
    );
  } else {
    const top = numpyTop as number[][];
    for (const name of Object.keys(kernels)) {
      console.log(
        `identical top-${K} lists, ${name} vs numpy: ${same(lists[name], top)}/${lists[name]?.length ?? 0}`,
      );
    }
    const ours = blas ? 'blas' : usearch ? 'native' : 'js';
    for (const mode of ['batch', 'single'] as const) {
      console.log(
        `exact search, ${mode}: citegeist (${ours}) / numpy = ${formatRatio(t[`${ours} ${mode}`] as Timing, t[`numpy ${mode}`] as Timing, { max: 1.5 })}`,
      );
    }
    console.log(
      `  (citegeist (${ours}) batch, top-k included / numpy's product alone: ${formatRatio(t[`${ours} batch`] as Timing, t['numpy product'] as Timing, { max: 1.5 })})`,
    );
    if (blas && usearch)
      console.log(
        `  (native usearch scan / numpy, batch: ${formatRatio(t['native batch'] as Timing, t['numpy batch'] as Timing, { max: 1.5 })})`,
      );
  }
  rmSync(dir, { recursive: true, force: true });
}

function benchAnn(label: string, data: Float32Array, queries: Float32Array[]): void {
  const n = data.length / D;
  const truth = new ExactIndex(data, D, 'js').search(queries, K);
  if (!usearch) console.log(`${label}: usearch is not installed (Node 20); its HNSW is not measured`);
  const { m, efConstruction, efSearch } = ANN_DEFAULTS;
  const [us, usBuild] = time(() => {
    if (!usearch) return null;
    const index = new usearch.Index({
      dimensions: D,
      metric: usearch.MetricKind.IP,
      quantization: usearch.ScalarKind.F32,
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
    us ? queries.map((q) => Array.from(us.search(q, K, 1).keys, (key) => ({ index: Number(key) }))) : null,
  );
  const [hn, hnBuild] = time(() => new AnnIndex(data, D));
  const [hnHits, hnMs] = time(() => hn.search(queries, K));
  const params = `M=${m}, efC=${efConstruction}, ef=${efSearch}`;
  for (const [name, build, ms, hits] of [
    ...(usHits ? [['usearch HNSW', usBuild, usMs, usHits] as const] : []),
    ['hnswlib-node HNSW (AnnIndex)', hnBuild, hnMs, hnHits] as const,
  ]) {
    console.log(
      `${label} ${n} x ${D}: ${name} (${params}): build ${(build / 1000).toFixed(1)} s, ${(ms / Q).toFixed(3)} ms/query, recall@10 ${recall(truth, hits).toFixed(4)}`,
    );
  }
}

export default async function (): Promise<void> {
  const data = uniform(N, 1);
  await benchExact(data, rows(uniform(Q, 2), Q));
  if (process.env.DENSE_BENCH_ANN === '0') return;
  benchAnn('uniform', data.subarray(0, ANN_N * D), rows(uniform(Q, 2), Q));
  const centres = uniform(100, 3);
  const both = clustered(ANN_N + Q, 4, centres);
  benchAnn('clustered (100 Gaussian blobs)', both.subarray(0, ANN_N * D), rows(both.subarray(ANN_N * D), Q));
}
