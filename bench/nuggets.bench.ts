/**
 * `npm run bench -- nuggets`: paraphrase clustering of one request's questions (METHODS §5 step 2)
 * with the embeddings given: candidate pairs at cosine ≥ 0.9 plus single-link clusters, for
 * 10,000 questions (HNSW path) against the exact all-pairs scan at the exact limit (3,000), both
 * measured in the same run. Also the HNSW path's recall of the exact pairs at 3,000 questions,
 * and memory. Synthetic 384-d embeddings shaped like a request's questions: 2,500 information
 * needs × 4 paraphrases (cosine ≈ 0.93 within a need) around 20 subtopics (≈ 0.5 across needs).
 */
import { loadavg } from 'node:os';
import { candidatePairs, singleLinkClusters } from '../src/generate/index.js';
import { createRandom } from '../src/stats/index.js';

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function questions(n: number, d: number, seed: number): Float32Array[] {
  const random = createRandom(seed);
  const vec = (scale: number) => Array.from({ length: d }, () => gaussian(random) * scale);
  const unit = (v: number[]) => {
    const s = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    return v.map((x) => x / s);
  };
  const topics = Array.from({ length: 20 }, () => unit(vec(1)));
  const needs = Array.from({ length: Math.ceil(n / 4) }, (_, k) =>
    unit(topics[k % 20]!.map((t, j) => t + vec(1)[j]! / Math.sqrt(d))),
  );
  return Array.from({ length: n }, (_, i) =>
    Float32Array.from(
      unit(needs[i % needs.length]!.map((x) => x + (gaussian(random) * 0.27) / Math.sqrt(d))),
    ),
  );
}

function cluster(v: Float32Array[], exactLimit: number) {
  const found = candidatePairs(v, 0.9, { exactLimit });
  const clusters = singleLinkClusters(
    v.length,
    found.pairs.map((p) => [p.i, p.j] as const),
  );
  return { pairs: found.pairs, method: found.method, clusters: clusters.length };
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]! };
}

export default async function (): Promise<void> {
  const d = 384;
  const big = questions(10_000, d, 1);
  const small = questions(3_000, d, 2);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (2 cores shared)`,
  );
  const exactTimes: number[] = [];
  const annTimes: number[] = [];
  let heapPeak = 0;
  let last: ReturnType<typeof cluster> | null = null;
  for (let pass = 0; pass < 3; pass++) {
    let t0 = performance.now();
    cluster(small, 3_000);
    exactTimes.push(performance.now() - t0);
    const before = process.memoryUsage();
    t0 = performance.now();
    last = cluster(big, 3_000);
    annTimes.push(performance.now() - t0);
    const after = process.memoryUsage();
    heapPeak = Math.max(heapPeak, after.rss - before.rss, after.heapUsed - before.heapUsed);
  }
  const e = stats(exactTimes);
  const a = stats(annTimes);
  console.log(
    `baseline: exact all-pairs, 3,000 questions: min ${e.min.toFixed(0)} ms, median ${e.median.toFixed(0)} ms`,
  );
  console.log(
    `10,000 questions (${last!.method}): min ${a.min.toFixed(0)} ms, median ${a.median.toFixed(0)} ms = ${(a.median / e.median).toFixed(2)}× baseline; ${last!.pairs.length} candidate pairs, ${last!.clusters} clusters`,
  );
  console.log(
    `memory: input ${((big.length * d * 4) / 2 ** 20).toFixed(1)} MiB of float32; growth during clustering ≤ ${(heapPeak / 2 ** 20).toFixed(0)} MiB (RSS or heap)`,
  );
  const exact = candidatePairs(small, 0.9, { exactLimit: 3_000 }).pairs;
  const ann = new Set(candidatePairs(small, 0.9, { exactLimit: 100 }).pairs.map((p) => `${p.i}-${p.j}`));
  const hit = exact.filter((p) => ann.has(`${p.i}-${p.j}`)).length;
  console.log(
    `HNSW recall of the exact pairs at 3,000 questions: ${hit}/${exact.length} = ${(hit / exact.length).toFixed(4)}`,
  );
}
