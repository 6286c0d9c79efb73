import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFailure } from '../common/index.js';
import { PageFile } from '../common/page-file.js';
import { ANN_DEFAULTS, AnnIndex, type AnnOptions } from './ann-index.js';
import { DENSE_CHUNK_ROWS, DENSE_FILES, DiskDenseIndex } from './dense-file.js';

/**
 * HNSW parameters of an index's graph: `ANN_DEFAULTS` but efConstruction 64, since the graph is
 * built once and kept. On the 10× synthetic corpus (136,570 LSA-256 vectors, near-duplicate
 * passages) efConstruction 32 reached recall@10 0.78 at efSearch 64 and 0.93 at 512 (27 s build);
 * 64 reached 0.95 at efSearch 64 (40 s); M 32 with 64, 0.95 (41 s); efConstruction 128, 0.997 (84 s).
 */
export const ANN_INDEX_DEFAULTS = { ...ANN_DEFAULTS, efConstruction: 64 } as const;

/** The graph file of a generation folder (committed with it, like every other index file). */
export const ANN_FILE = 'ann.hnsw';
/** recall@10 against exact search a graph must reach; efSearch is raised until it does. */
export const ANN_RECALL_TARGET = 0.95;
/** efSearch is doubled up to this while recall@10 stays below the target. */
export const ANN_EF_CAP = 512;
/** Passages used as queries to measure a graph's recall@10 (fewer on a smaller index). */
export const ANN_RECALL_QUERIES = 200;
const RECALL_K = 10;

/** What the manifest records of a persisted graph: how it was built and what it was measured at. */
export interface AnnReport {
  /** The graph file in the generation folder. */
  file: string;
  /** Points in the graph: the live rows when it was built (labels are row numbers). */
  vectors: number;
  dimensions: number;
  m: number;
  efConstruction: number;
  /** The efSearch queries use: the default, or the one raised to reach the target. */
  efSearch: number;
  /** Mean recall@10 against exact search with the corpus's own passages as queries; null without any. */
  recallAt10: number | null;
  queries: number;
  target: number;
  /**
   * Whether recallAt10 reached the target (false: queries may miss true neighbours; see `trials`);
   * true when there was nothing to measure (recallAt10 null: every search returns all vectors).
   */
  metTarget: boolean;
  /** Each efSearch tried, in order, and the recall@10 measured with it. */
  trials: { efSearch: number; recallAt10: number }[];
  /** Building and writing the graph, in ms. */
  builtInMs: number;
  /** Measuring its recall (exact search of the sample included), in ms. */
  measuredInMs: number;
}

export interface AnnBuildOptions extends AnnOptions {
  /** Passages used as queries (default `ANN_RECALL_QUERIES`). */
  queries?: number;
  /** Default `ANN_RECALL_TARGET`. */
  target?: number;
  /** Default `ANN_EF_CAP`. */
  efCap?: number;
}

/**
 * Builds the HNSW graph of the live vectors of a generation folder (its `dense.json` and
 * `dense.f32`, written before; rows read in chunks, labelled with their row numbers, tombstoned
 * ones left out), writes it to `ANN_FILE` there, and certifies it: recall@10 against exact search
 * on an evenly spaced sample of the live passages, each its own vector as the query (its own row
 * left out of both lists: finding itself is trivial). Below the target, efSearch is doubled up to
 * the cap until it is met; the report says which was chosen and whether the target was met. With
 * fewer than two live vectors there is nothing to measure (`recallAt10` null). The graph holds
 * every live vector in memory while it is built.
 */
export function buildAnnGraph(
  folder: string,
  vectors: { embedderId: string; count: number; dimensions: number; dead: Uint8Array | null },
  options: AnnBuildOptions = {},
): AnnReport {
  const { count, dimensions: d, dead } = vectors;
  const m = options.m ?? ANN_INDEX_DEFAULTS.m;
  const efConstruction = options.efConstruction ?? ANN_INDEX_DEFAULTS.efConstruction;
  const target = options.target ?? ANN_RECALL_TARGET;
  const cap = options.efCap ?? ANN_EF_CAP;
  const live: number[] = [];
  for (let row = 0; row < count; row++) if (!dead?.[row]) live.push(row);

  const started = performance.now();
  const graph = new AnnIndex({ capacity: live.length }, d, {
    m,
    efConstruction,
    efSearch: options.efSearch ?? ANN_INDEX_DEFAULTS.efSearch,
  });
  const file = new PageFile(join(folder, DENSE_FILES.vectors));
  try {
    for (let start = 0; start < count; start += DENSE_CHUNK_ROWS) {
      const rows = Math.min(DENSE_CHUNK_ROWS, count - start);
      const chunk = file.float32(start * d * 4, rows * d);
      for (let i = 0; i < rows; i++) {
        if (!dead?.[start + i]) graph.add(chunk.subarray(i * d, (i + 1) * d), start + i);
      }
    }
  } finally {
    file.close();
  }
  const path = join(folder, ANN_FILE);
  const temp = `${path}.tmp`;
  try {
    graph.write(temp);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw writeFailure(path, error);
  }
  const builtInMs = Math.round(performance.now() - started);

  const measuring = performance.now();
  const sample = evenlySpaced(live, Math.min(options.queries ?? ANN_RECALL_QUERIES, live.length));
  const trials: AnnReport['trials'] = [];
  if (sample.length > 0) {
    const exact = exactTopK(folder, vectors, sample);
    const queries = exact.queries;
    for (;;) {
      const found = withoutSelf(graph.search(queries, RECALL_K + 1), sample);
      const recall = recallAt10(found, exact.hits);
      if (recall === null) break;
      trials.push({ efSearch: graph.efSearch, recallAt10: recall });
      if (recall >= target || graph.efSearch >= cap) break;
      graph.efSearch = Math.min(cap, graph.efSearch * 2);
    }
  }
  const last = trials.at(-1);
  return {
    file: ANN_FILE,
    vectors: graph.size,
    dimensions: d,
    m,
    efConstruction,
    efSearch: graph.efSearch,
    recallAt10: last ? last.recallAt10 : null,
    queries: last ? sample.length : 0,
    target,
    metTarget: last ? last.recallAt10 >= target : true,
    trials,
    builtInMs,
    measuredInMs: Math.round(performance.now() - measuring),
  };
}

/** `n` of `items` spread evenly over it (the middle of each of n equal stretches): deterministic. */
function evenlySpaced(items: readonly number[], n: number): number[] {
  return Array.from({ length: n }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / n)] as number);
}

/** The sample rows' vectors and their exact top 10 among the live rows (the exact scan `search` uses). */
function exactTopK(
  folder: string,
  vectors: { embedderId: string; dimensions: number; dead: Uint8Array | null },
  sample: readonly number[],
): { queries: Float32Array[]; hits: { index: number; score: number }[][] } {
  const d = vectors.dimensions;
  const exact = DiskDenseIndex.open(
    folder,
    { id: vectors.embedderId, dimensions: d },
    { idAt: String, rowOf: () => undefined, dead: () => vectors.dead },
    'exact',
  );
  try {
    const queries = sample.map((row) => exact.vectorAt(row));
    return { queries, hits: withoutSelf(exact.search(queries, RECALL_K + 1), sample) };
  } finally {
    exact.close();
  }
}

/**
 * Each query's hits without its own row (else the first 10): a passage finds itself trivially, and
 * counting it would lift recall by up to 0.1 above what other queries see (measured on the 1×
 * synthetic corpus: 0.975 with it against 0.944 for 1,000 QASPER questions).
 */
function withoutSelf(hits: { index: number; score: number }[][], rows: readonly number[]) {
  return hits.map((list, q) => {
    const at = list.findIndex((h) => h.index === rows[q]);
    return (at >= 0 ? list.filter((_, i) => i !== at) : list).slice(0, RECALL_K);
  });
}

/**
 * Mean share of each query's exact top 10 the graph found. A graph hit scoring at least the exact
 * 10th score counts too: with equal vectors (repeated passages) which of the tied rows is 10th is
 * arbitrary, and any of them is a true neighbour.
 */
function recallAt10(
  found: { index: number; score: number }[][],
  exact: { index: number; score: number }[][],
): number | null {
  let sum = 0;
  let counted = 0;
  exact.forEach((want, q) => {
    if (want.length === 0) return;
    counted++;
    const ids = new Set(want.map((h) => h.index));
    const tenth = (want.at(-1) as { score: number }).score - 1e-6;
    const got = (found[q] ?? []).filter((h) => ids.has(h.index) || h.score >= tenth).length;
    sum += Math.min(got, want.length) / want.length;
  });
  // Four decimals: what the manifest records and the target is compared with.
  return counted ? Math.round((sum / counted) * 1e4) / 1e4 : null;
}

/** One line on a graph for summaries: size, build time, recall@10 and the efSearch it was certified at. */
export function describeAnn(report: AnnReport): string {
  const raised =
    report.trials.length > 1
      ? ` (efSearch raised: ${report.trials.map((t) => `${t.efSearch} → ${t.recallAt10.toFixed(3)}`).join(', ')})`
      : '';
  const recall =
    report.recallAt10 === null
      ? 'recall not measured (fewer than two vectors)'
      : `recall@10 ${report.recallAt10.toFixed(3)} against exact search on ${report.queries} passages at efSearch ${report.efSearch}${raised}`;
  return `ANN graph (HNSW, M ${report.m}, efConstruction ${report.efConstruction}) of ${report.vectors} vectors built in ${(report.builtInMs / 1000).toFixed(1)} s; ${recall}`;
}
