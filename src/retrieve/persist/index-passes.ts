import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../../core/index.js';
import { type Embedder, LsaEmbedder, needsFitting } from '../../llm/index.js';
import type { DenseFileWriter } from '../dense/index.js';
import { embedShards } from './embed-shards.js';
import { buildShard, type ShardResult, type ShardSettings } from './index-shard.js';
import type { IndexWorkerRequest } from './index-worker-protocol.js';
import type { IndexWorkerPool } from './shard-pool.js';
import { spooledTextsAt } from './text-spool.js';

/**
 * Passages a corpus-fitted embedder (LSA) is fitted on at most. A corpus with more passages has
 * its embedder fitted on an evenly spaced sample of about this size (recorded in the manifest as
 * `embedderFit`), and every passage embedded with the fitted model, so memory does not grow with
 * the corpus; up to it, the fit is on every passage, as before.
 */
export const FIT_SAMPLE = 150_000;

/** A corpus file whose papers are read on worker threads, one run of consecutive papers per task. */
export interface ParallelSource {
  corpusPath: string;
  /** The papers to index, in order: [id, content digest]. */
  papers: readonly (readonly [id: string, digest: string])[];
  /** Worker threads (more than 1; one run a thread takes at a time). */
  workers: number;
}

/** Where the papers of a build or an update come from: a stream, or the corpus file on worker threads. */
export interface PaperSource {
  /** The papers in order, each with its content digest (read on this thread without `parallel`). */
  documents: () => Iterable<{ document: Document; digest: string }>;
  parallel?: { source: ParallelSource; pool: IndexWorkerPool } | undefined;
}

/** Runs per worker thread: enough that one slow run does not leave the other threads idle. */
const RUNS_PER_WORKER = 4;

/**
 * Pass 1 of a build: the papers cut, analysed and spooled into shards under `shardsDir`, on
 * worker threads (`source.parallel`) or on this one (one shard). Returns the shards in paper
 * order and the ids and digests of the papers indexed (a paper gone from the corpus meanwhile is
 * skipped).
 */
export async function indexShards(
  shardsDir: string,
  source: PaperSource,
  settings: ShardSettings,
  onPaper: () => void,
): Promise<{ shards: ShardResult[]; ids: string[]; digests: string[] }> {
  mkdirSync(shardsDir, { recursive: true });
  const ids: string[] = [];
  const digests: string[] = [];
  if (!source.parallel) {
    const dir = join(shardsDir, '0');
    mkdirSync(dir);
    const documents = function* () {
      for (const { document, digest } of source.documents()) {
        ids.push(document.id);
        digests.push(digest);
        yield document;
      }
    };
    return { shards: [buildShard(dir, documents(), settings, onPaper)], ids, digests };
  }
  const { source: parallel, pool } = source.parallel;
  const runs = splitRuns(parallel.papers, parallel.workers * RUNS_PER_WORKER);
  const requests: IndexWorkerRequest[] = runs.map((run, task) => {
    const dir = join(shardsDir, String(task));
    mkdirSync(dir);
    return {
      kind: 'shard',
      task,
      corpusPath: parallel.corpusPath,
      ids: run.map(([id]) => id),
      dir,
      settings,
    };
  });
  const answers = await pool.run(requests, papersDone(onPaper));
  const shards = answers.map((a) => (a as { shard: ShardResult }).shard);
  shards.forEach((shard, i) => {
    const run = runs[i] as readonly (readonly [string, string])[];
    for (const at of shard.indexed) {
      const [id, digest] = run[at] as readonly [string, string];
      ids.push(id);
      digests.push(digest);
    }
  });
  return { shards, ids, digests };
}

/** A per-paper progress callback called for `n` papers at once (what workers report). */
function papersDone(onPaper: () => void): (n: number) => void {
  return (n) => {
    for (let i = 0; i < n; i++) onPaper();
  };
}

/** `items` in at most `count` consecutive runs of near-equal length. */
function splitRuns<T>(items: readonly T[], count: number): T[][] {
  const n = Math.min(count, items.length);
  return Array.from({ length: n }, (_, i) =>
    items.slice(Math.floor((i * items.length) / n), Math.floor(((i + 1) * items.length) / n)),
  );
}

export interface DensePassOptions {
  /** Fit a corpus-fitted embedder on the shards' passages first (a build; an update reuses the model). */
  fit: boolean;
  fitSample?: number | undefined;
  batchSize?: number | undefined;
  /** The embedder spec, for worker threads to make the same embedder. */
  spec: string;
  /** The worker threads a fitted model's embedding pass runs on (null: this thread). */
  pool: IndexWorkerPool | null;
}

/**
 * Pass 2 of a build: the dense vectors of the shards' passages appended to `dense`, in order. A
 * corpus-fitted embedder is fitted first, on every passage or, past `fitSample`, on every s-th
 * passage (`fitStride`: s the smallest power of two that keeps at most `fitSample`, the sample
 * the streamed build of index formats 4–5 kept); the passages it was fitted on in full are
 * embedded from the fit's own term matrix. A fitted model (LSA) embeds on worker threads, a
 * shard each, and the shards' vectors are joined in order; other embedders (a served model)
 * embed on this thread. Returns what the fit was made on, or null without fitting.
 */
export async function densePass(
  shards: readonly ShardResult[],
  embedder: Embedder,
  dense: DenseFileWriter,
  options: DensePassOptions,
  onPaper: () => void,
): Promise<{ passages: number; of: number; sampled: boolean } | null> {
  const batchSize = options.batchSize ?? 256;
  const spooled = shards.map((s) => ({ dir: s.dir, passages: s.passages, papers: s.indexed.length }));
  let fit: { passages: number; of: number; sampled: boolean } | null = null;
  if (options.fit && needsFitting(embedder)) {
    const total = shards.reduce((n, s) => n + s.passages, 0);
    const stride = fitStride(total, options.fitSample ?? FIT_SAMPLE);
    const sample = sampleSpools(shards, stride);
    embedder.fit(sample);
    fit = { passages: sample.length, of: total, sampled: stride > 1 };
    const fitted = stride === 1 ? (embedder.takeFittedEmbeddings?.() ?? null) : null;
    if (fitted) {
      dense.add(fitted);
      papersDone(onPaper)(spooled.reduce((n, s) => n + s.papers, 0));
      return fit;
    }
  }
  if (options.pool && embedder instanceof LsaEmbedder && shards.length > 1) {
    const model = embedder.toJSON();
    const requests: IndexWorkerRequest[] = spooled.map((s, task) => ({
      kind: 'embed',
      task,
      ...s,
      spec: options.spec,
      model,
      batchSize,
    }));
    const answers = await options.pool.run(requests, papersDone(onPaper));
    answers.forEach((a, i) => {
      const { count, dimensions } = (a as { embedded: { count: number; dimensions: number } }).embedded;
      dense.appendFrom(spooled[i]!.dir, count, dimensions);
    });
    return fit;
  }
  await embedShards(spooled, embedder, dense, batchSize, onPaper);
  return fit;
}

/** The smallest power of two s with ⌈n / s⌉ ≤ limit (a sample that halves as the stream grows ends there). */
export function fitStride(n: number, limit: number): number {
  let s = 1;
  while (Math.ceil(n / s) > Math.max(1, limit)) s *= 2;
  return s;
}

/** The spooled texts of every `stride`-th passage of the shards, in order. */
function sampleSpools(shards: readonly ShardResult[], stride: number): string[] {
  const out: string[] = [];
  let base = 0;
  for (const shard of shards) {
    const rows: number[] = [];
    const first = (stride - (base % stride)) % stride;
    for (let r = first; r < shard.passages; r += stride) rows.push(r);
    for (const text of spooledTextsAt(shard.dir, rows)) out.push(text);
    base += shard.passages;
  }
  return out;
}
