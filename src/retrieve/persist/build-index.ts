import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CitegeistError, type Document } from '../../core/index.js';
import { fsyncDir, removeAtomicLeftovers, writeFileAtomic } from '../../io/index.js';
import { type Embedder, LsaEmbedder } from '../../llm/index.js';
import { writeFailure } from '../common/index.js';
import { DenseFileWriter } from '../dense/index.js';
import { BM25_DEFAULTS, type Bm25DiskHeader, DEFAULT_ANALYZER, mergeBm25Segments } from '../lexical/index.js';
import { type AnnRequest, annForGeneration } from './index-ann.js';
import {
  assertCurrentFormat,
  INDEX_FORMAT,
  type IndexManifest,
  MANIFEST_FILE,
  MODEL_FILE,
  partFolder,
  readManifest,
} from './index-dir.js';
import { type PaperFiles, readPaperFiles, writeIndexPapers } from './index-papers.js';
import { densePass, indexShards, type ParallelSource } from './index-passes.js';
import type { ShardResult } from './index-shard.js';
import { PassageTable, PassageTableWriter } from './passage-table.js';
import { IndexWorkerPool } from './shard-pool.js';

export interface IndexedDocument {
  document: Document;
  /** Its content digest (`CorpusStore.digests`), recorded so a changed paper is detected later. */
  digest: string;
}

export interface BuildIndexOptions {
  /** Passage token budget (`chunkDocument`). */
  maxTokens: number;
  /** Keep bibliography entries as passages (left out by default: a top hit should not be a reference). */
  includeReferences?: boolean;
  /** The dense side, or null for BM25 only; a corpus-fitted embedder (LSA) is fitted here. */
  embedder: { spec: string; embedder: Embedder } | null;
  /** citegeist's version, recorded in the manifest. */
  version: string;
  /** Texts per embedding call (default 256). */
  batchSize?: number;
  /** Called after each paper of each pass (`embed`: the dense vectors, after the BM25 pass `index`). */
  onProgress?: (done: number, total: number, pass: 'index' | 'embed') => void;
  /** Documents in all, for progress (the iterator may not know it). */
  total?: number;
  /** Postings per BM25 segment (tests make it small to exercise the merge). */
  segmentPostings?: number;
  /** Passages a corpus-fitted embedder is fitted on at most (default `FIT_SAMPLE`). */
  fitSample?: number;
  /** The corpus's change token read before its digests (`CorpusStore.changeToken`), recorded. */
  corpusToken?: string | null;
  /**
   * Read and index the papers on worker threads from the corpus file (`ParallelSource`); the
   * index is the one a single thread builds, byte for byte.
   */
  parallel?: ParallelSource | undefined;
  /** Build, certify and persist an HNSW graph of the vectors in the generation (`index --ann`). */
  ann?: AnnRequest;
}

/**
 * Builds an index in `dir` from documents streamed from the corpus, in bounded memory, in two
 * passes over shards (runs of consecutive papers, each on a worker thread with `parallel`):
 * pass 1 cuts each paper into passages, writes them to the shard's passage table, analyses them
 * into sorted BM25 segments and spools their text; the shards are then joined in paper order (the
 * tables appended, the segments merged on disk into one BM25 part); pass 2 fits a corpus-fitted
 * embedder on a sample of the spooled passages and embeds them all (`densePass`). Everything goes
 * into a new generation folder; the manifest naming it is written last, by an atomic rename, so a
 * build that is killed or fails (a full disk: `INDEX_DISK_FULL`) leaves the previous index as it
 * was. Older generations are removed after.
 */
export async function writeIndex(
  dir: string,
  documents: () => Iterable<IndexedDocument>,
  options: BuildIndexOptions,
): Promise<IndexManifest> {
  mkdirSync(dir, { recursive: true });
  const previous = safeGeneration(dir);
  const generation = newGeneration();
  const folder = join(dir, generation);
  removeLeftovers(dir, previous);
  mkdirSync(folder);
  const includeReferences = options.includeReferences ?? false;
  const embedder = options.embedder?.embedder ?? null;
  const table = new PassageTableWriter(folder);
  const dense = embedder ? new DenseFileWriter(folder) : null;
  const workers = workersFor(options.parallel);
  const pool = workers?.pool ?? null;
  const merger = pool ? new IndexWorkerPool(1) : null;
  let merging: Promise<Bm25DiskHeader> | null = null;
  const clock = new StepClock();
  try {
    const pass1 = await indexShards(
      join(folder, SHARDS_FOLDER),
      { documents, parallel: workers },
      {
        maxTokens: options.maxTokens,
        includeReferences,
        segmentPostings: options.segmentPostings,
        spool: embedder !== null,
      },
      progressOf(options, 'index'),
    );
    clock.lap('index');
    // The workers' heaps still hold pass 1's tables while the fit needs its memory: they are
    // stopped here and started afresh if the embedding runs on them (a quarter of a second).
    await pool?.close();
    merging = joinShards(folder, 0, pass1.shards, table, merger, clock);
    let fit: IndexManifest['embedderFit'] = null;
    if (embedder && dense && options.embedder) {
      fit = await densePass(
        pass1.shards,
        embedder,
        dense,
        {
          fit: true,
          fitSample: options.fitSample,
          batchSize: options.batchSize,
          spec: options.embedder.spec,
          pool,
        },
        progressOf(options, 'embed'),
      );
      dense.close(embedder.id, embedder.dimensions);
    }
    clock.lap('dense');
    const header = await merging;
    rmSync(join(folder, SHARDS_FOLDER), { recursive: true, force: true });
    if (embedder instanceof LsaEmbedder)
      writeFileSync(join(folder, MODEL_FILE), JSON.stringify(embedder.toJSON()));
    const papers = { ids: pass1.ids, dead: [] };
    writeIndexPapers(folder, papers, pass1.digests);
    const counts = { passages: table.count, rows: table.count, deadRows: 0 };
    const vectors = { embedderId: embedder?.id ?? null, dimensions: embedder?.dimensions ?? null };
    const ann = annForGeneration(folder, { ...counts, ...vectors }, papers, options.ann);
    const manifest: IndexManifest = {
      format: INDEX_FORMAT,
      createdAt: new Date().toISOString(),
      builtBy: options.version,
      generation,
      papers: pass1.ids.length,
      passages: table.count,
      rows: table.count,
      deadRows: 0,
      parts: [table.count],
      corpusToken: options.corpusToken ?? null,
      maxTokens: options.maxTokens,
      includeReferences,
      embedderSpec: options.embedder?.spec ?? null,
      embedderId: embedder?.id ?? null,
      dimensions: embedder?.dimensions ?? null,
      ...(fit ? { embedderFit: fit } : {}),
      build: clock.report(pool?.size ?? 1),
      ...(ann ? { ann } : {}),
    };
    assertSameCount(header.documents, table.count);
    commitManifest(dir, manifest);
    removeLeftovers(dir, generation);
    return manifest;
  } catch (error) {
    table.abandon();
    dense?.abandon();
    await merger?.close();
    await merging?.catch(() => {});
    rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    await pool?.close();
    await merger?.close();
  }
}

/** What `updateIndex` changes: papers to tombstone and papers to append (new or new content). */
export interface IndexUpdate {
  /** Ids of indexed papers removed from the corpus or changed (their indexed passages are tombstoned). */
  remove: readonly string[];
  /** Papers to append: added ones and the new content of changed ones, in corpus order. */
  add: () => Iterable<IndexedDocument>;
}

export interface UpdateIndexOptions
  extends Pick<
    BuildIndexOptions,
    'version' | 'batchSize' | 'onProgress' | 'total' | 'segmentPostings' | 'corpusToken' | 'parallel' | 'ann'
  > {
  /** The index's embedder, restored as built (a fitted LSA from its saved model), or null without vectors. */
  embedder: Embedder | null;
  /** The index's paper files if the freshness check read them (`IndexCheck`), else read here. */
  papers?: PaperFiles | null;
}

/**
 * Updates an index in place of a rebuild: the papers to add are cut, analysed and embedded into a
 * new BM25 part appended after the existing ones (the same two passes as a build, without a fit),
 * and the papers removed or changed are tombstoned (their rows are left out of every query and of
 * BM25's statistics, so every BM25 score is the one a rebuild gives). The earlier parts are
 * hard-linked into the new generation folder and the passage table and vectors copied and
 * appended to, so the previous generation stays intact until the new manifest is committed, as
 * with a build. Tombstones are dropped when the index is next rebuilt (`indexCorpus` rebuilds
 * once they or the parts grow past its limits).
 */
export async function updateIndex(
  dir: string,
  previous: IndexManifest,
  update: IndexUpdate,
  options: UpdateIndexOptions,
): Promise<IndexManifest> {
  const prevFolder = assertCurrentFormat(dir, previous);
  const { papers: before, digests: beforeDigests } = options.papers ?? readPaperFiles(prevFolder);
  const generation = newGeneration();
  const folder = join(dir, generation);
  removeLeftovers(dir, previous.generation ?? null);
  mkdirSync(folder);
  const parts = previous.parts ?? [];
  const rows = previous.rows ?? previous.passages;
  const embedder = options.embedder;
  let table: PassageTableWriter | null = null;
  let dense: DenseFileWriter | null = null;
  const workers = workersFor(options.parallel);
  const pool = workers?.pool ?? null;
  const clock = new StepClock();
  try {
    for (let i = 0; i < parts.length; i++) linkFolder(partFolder(prevFolder, i), partFolder(folder, i));
    if (existsSync(join(prevFolder, MODEL_FILE)))
      copyFileSync(join(prevFolder, MODEL_FILE), join(folder, MODEL_FILE));
    table = new PassageTableWriter(folder, { dir: prevFolder, rows, documents: before.ids.length });
    dense =
      embedder && previous.dimensions !== null
        ? new DenseFileWriter(folder, { dir: prevFolder, count: rows, dimensions: previous.dimensions })
        : null;
    // Tombstones: the live position of each paper removed or replaced, and its rows.
    const dead = new Set(before.dead);
    let deadRows = previous.deadRows ?? 0;
    const indexed = new PassageTable(prevFolder, previous, before);
    try {
      for (const id of update.remove) {
        const at = indexed.positionOf(id);
        if (at === undefined || dead.has(at)) continue;
        dead.add(at);
        deadRows += indexed.rowsAt(at);
      }
    } finally {
      indexed.close();
    }
    const pass1 = await indexShards(
      join(folder, SHARDS_FOLDER),
      { documents: update.add, parallel: workers },
      {
        maxTokens: previous.maxTokens,
        includeReferences: previous.includeReferences ?? false,
        segmentPostings: options.segmentPostings,
        spool: dense !== null,
      },
      progressOf(options, 'index'),
    );
    clock.lap('index');
    const header = await joinShards(folder, parts.length, pass1.shards, table, null, clock);
    if (embedder && dense) {
      await densePass(
        pass1.shards,
        embedder,
        dense,
        {
          fit: false,
          batchSize: options.batchSize,
          spec: previous.embedderSpec ?? '',
          pool,
        },
        progressOf(options, 'embed'),
      );
      dense.close(embedder.id, embedder.dimensions);
    }
    clock.lap('dense');
    rmSync(join(folder, SHARDS_FOLDER), { recursive: true, force: true });
    const ids = [...before.ids, ...pass1.ids];
    const digests = [...beforeDigests, ...pass1.digests];
    const papers = { ids, dead: [...dead].sort((a, b) => a - b) };
    writeIndexPapers(folder, papers, digests);
    const added = table.count - rows;
    assertSameCount(header.documents, added);
    // The earlier graph lacks the new rows, so it is never carried over: rebuilt with `ann`, else dropped.
    const counts = { passages: table.count - deadRows, rows: table.count, deadRows };
    const ann = annForGeneration(folder, { ...previous, ...counts }, papers, dense ? options.ann : false);
    const { documents: _d, digests: _g, ann: _a, ...settings } = previous;
    const manifest: IndexManifest = {
      ...settings,
      format: INDEX_FORMAT,
      updatedAt: new Date().toISOString(),
      builtBy: options.version,
      generation,
      papers: ids.length - dead.size,
      passages: table.count - deadRows,
      rows: table.count,
      deadRows,
      parts: [...parts, added],
      corpusToken: options.corpusToken ?? null,
      build: clock.report(pool?.size ?? 1),
      ...(ann ? { ann } : {}),
    };
    commitManifest(dir, manifest);
    removeLeftovers(dir, generation);
    return manifest;
  } catch (error) {
    table?.abandon();
    dense?.abandon();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  } finally {
    await pool?.close();
  }
}

/** The worker threads of a build on `parallel`, with its papers (none for one worker or a single paper). */
function workersFor(
  parallel: ParallelSource | undefined,
): { source: ParallelSource; pool: IndexWorkerPool } | undefined {
  return parallel && parallel.workers > 1 && parallel.papers.length > 1
    ? { source: parallel, pool: new IndexWorkerPool(parallel.workers) }
    : undefined;
}

/** The shards' folder inside a generation being built (removed before it is committed). */
const SHARDS_FOLDER = 'shards';

/**
 * Joins the shards of pass 1 into the generation: their passage tables appended to `table` (then
 * closed) and their BM25 segments merged into part `part`, on a worker thread of its own when the
 * build has workers (the merge then runs beside the dense pass), else on this one.
 */
function joinShards(
  folder: string,
  part: number,
  shards: readonly ShardResult[],
  table: PassageTableWriter,
  merger: IndexWorkerPool | null,
  clock: StepClock,
): Promise<Bm25DiskHeader> {
  for (const s of shards) table.appendShard(s.dir, s.passages, s.indexed.length);
  table.close();
  clock.lap('join');
  const partDir = partFolder(folder, part);
  mkdirSync(partDir);
  const writers = shards.map((s) => s.bm25);
  if (!merger) {
    const started = performance.now();
    const header = mergeBm25Segments(partDir, writers, DEFAULT_ANALYZER, BM25_BUILD_PARAMS);
    clock.ms.merge = Math.round(performance.now() - started);
    return Promise.resolve(header);
  }
  const request = {
    kind: 'merge',
    task: 0,
    partDir,
    writers,
    analyzer: DEFAULT_ANALYZER,
    params: BM25_BUILD_PARAMS,
  } as const;
  return merger
    .run([request], () => {})
    .then(([answer]) => {
      // Timed on its thread: this one may be busy fitting when the answer arrives.
      const { merged, ms } = answer as { merged: Bm25DiskHeader; ms: number };
      clock.ms.merge = ms;
      return merged;
    });
}

/**
 * Wall time per step of a build (`IndexManifest.build`): `lap(step)` charges the time since the
 * previous lap to `step`; the merge is timed on its own, as it may overlap the dense pass.
 */
class StepClock {
  readonly ms = { index: 0, join: 0, dense: 0, merge: 0, total: 0 };
  private readonly start = performance.now();
  private last = this.start;

  lap(step: 'index' | 'join' | 'dense'): void {
    const now = performance.now();
    this.ms[step] = Math.round(now - this.last);
    this.last = now;
  }

  report(workers: number): NonNullable<IndexManifest['build']> {
    return { workers, ms: { ...this.ms, total: Math.round(performance.now() - this.start) } };
  }
}

/** A pass's per-paper progress callback (`onProgress` counts from 1 again in each pass). */
function progressOf(options: Pick<BuildIndexOptions, 'onProgress' | 'total'>, pass: 'index' | 'embed') {
  let done = 0;
  return () => options.onProgress?.(++done, options.total ?? done, pass);
}

/** BM25 parameters an index is built with (queries may override them). */
const BM25_BUILD_PARAMS = BM25_DEFAULTS;

function newGeneration(): string {
  return `g-${Date.now().toString(36)}-${process.pid}`;
}

function assertSameCount(bm25: number, table: number): void {
  if (bm25 !== table) {
    throw new CitegeistError(
      'INTERNAL',
      `The BM25 index holds ${bm25} passages but the passage table ${table}.`,
      'Report this with --debug output; rebuild with `citegeist index --rebuild`.',
    );
  }
}

/** Hard-links every file of `from` into a new folder `to` (copies where links are not possible). */
function linkFolder(from: string, to: string): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    try {
      linkSync(join(from, name), join(to, name));
    } catch {
      try {
        copyFileSync(join(from, name), join(to, name));
      } catch (error) {
        throw writeFailure(join(to, name), error);
      }
    }
  }
}

/**
 * Commits an index: the files of the generation the manifest names are fsynced, then the manifest
 * is written by `writeFileAtomic` (a temporary file, fsynced, renamed over the old one, the folder
 * fsynced), so after a crash or a power loss the manifest names either the previous generation or
 * a complete new one. A failure leaves the previous manifest (INDEX_DISK_FULL / INDEX_WRITE_FAILED).
 */
export function commitManifest(dir: string, manifest: IndexManifest): void {
  const path = join(dir, MANIFEST_FILE);
  try {
    if (manifest.generation) fsyncTree(join(dir, manifest.generation));
    writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    throw writeFailure(path, error instanceof CitegeistError && error.cause ? error.cause : error);
  }
}

/** Fsyncs every file under `folder`, then each folder (their entries), deepest first. */
function fsyncTree(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) fsyncTree(path);
    else if (entry.isFile()) {
      const fd = openSync(path, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  fsyncDir(folder);
}

/** The generation the current manifest names, or null (none, unreadable or an older format). */
function safeGeneration(dir: string): string | null {
  try {
    return readManifest(dir).generation ?? null;
  } catch {
    return null;
  }
}

/** Files of older formats, written at the top of the index folder. */
const LEGACY_FILES = ['passages.jsonl', 'bm25.bin', 'dense.bin', 'embedder.json'];

/**
 * Removes generation folders other than `keep` (left by a killed or failed build, or replaced)
 * and, once a current index is committed, the one-piece files of older formats. Other files
 * (recipes.jsonl) stay.
 */
function removeLeftovers(dir: string, keep: string | null): void {
  removeAtomicLeftovers(dir, (target) => target === MANIFEST_FILE);
  for (const name of readdirSync(dir)) {
    if (name.startsWith('g-') && name !== keep) rmSync(join(dir, name), { recursive: true, force: true });
  }
  if (keep && safeGeneration(dir) === keep) {
    for (const name of LEGACY_FILES) rmSync(join(dir, name), { force: true });
  }
}
