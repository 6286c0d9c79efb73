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
import { type Embedder, LsaEmbedder, needsFitting } from '../../llm/index.js';
import { writeFailure } from '../common/index.js';
import { DenseFileWriter } from '../dense/index.js';
import { BM25_DEFAULTS, Bm25SegmentWriter, DEFAULT_ANALYZER, SEGMENT_POSTINGS } from '../lexical/index.js';
import { chunkDocument, type Passage } from '../passages/index.js';
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
import { PassageTable, PassageTableWriter } from './passage-table.js';

export interface IndexedDocument {
  document: Document;
  /** Its content digest (`CorpusStore.digests`), recorded so a changed paper is detected later. */
  digest: string;
}

/**
 * Passages a corpus-fitted embedder (LSA) is fitted on at most. A corpus with more passages has
 * its embedder fitted on an evenly spaced sample of about this size (recorded in the manifest as
 * `embedderFit`), and every passage embedded with the fitted model, so memory does not grow with
 * the corpus; up to it, the fit is on every passage, as before.
 */
export const FIT_SAMPLE = 150_000;

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
  /** Called after each document of each pass (`pass` 2 re-reads the corpus to embed it). */
  onProgress?: (done: number, total: number, pass: 'index' | 'embed') => void;
  /** Documents in all, for progress (the iterator may not know it). */
  total?: number;
  /** Postings per BM25 segment (tests make it small to exercise the merge). */
  segmentPostings?: number;
  /** Passages a corpus-fitted embedder is fitted on at most (default `FIT_SAMPLE`). */
  fitSample?: number;
  /** The corpus's change token read before its digests (`CorpusStore.changeToken`), recorded. */
  corpusToken?: string | null;
  /** Build, certify and persist an HNSW graph of the vectors in the generation (`index --ann`). */
  ann?: AnnRequest;
}

/**
 * Builds an index in `dir` from documents streamed from the corpus, in bounded memory: passages
 * are written as they are cut, BM25 postings in segments merged on disk, dense vectors appended
 * as they are embedded. Everything goes into a new generation folder; the manifest naming it is
 * written last, by an atomic rename, so a build that is killed or fails (a full disk:
 * `INDEX_DISK_FULL`) leaves the previous index as it was. Older generations are removed after.
 * `documents` is called once, or twice for a corpus-fitted embedder on a corpus above its
 * fitting budget (fit on a sample, then embed everything).
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
  const fitting = embedder !== null && needsFitting(embedder);
  const table = new PassageTableWriter(folder);
  const sinks = openSinks(folder, 0, table, null, embedder, { ...options, includeReferences });
  const sample = fitting ? new StrideSample(options.fitSample ?? FIT_SAMPLE) : null;
  const ids: string[] = [];
  const digests: string[] = [];
  try {
    await appendDocuments(documents(), sinks, { ids, digests, sample, fitting, options });
    table.close();
    const header = sinks.bm25.finish(BM25_BUILD_PARAMS);
    let fit: IndexManifest['embedderFit'] = null;
    const { dense } = sinks;
    if (fitting && embedder && dense && sample) {
      embedder.fit(sample.items);
      const fitted = sample.complete ? (embedder.takeFittedEmbeddings?.() ?? null) : null;
      fit = { passages: sample.items.length, of: table.count, sampled: !sample.complete };
      sample.items = [];
      if (fitted) dense.add(fitted);
      else {
        let done = 0;
        for (const { document } of documents()) {
          for (const p of sinks.chunk(document)) await sinks.embed(p.indexText ?? p.text);
          options.onProgress?.(++done, options.total ?? done, 'embed');
        }
        await sinks.flush();
      }
    }
    if (embedder && dense) dense.close(embedder.id, embedder.dimensions);
    if (embedder instanceof LsaEmbedder)
      writeFileSync(join(folder, MODEL_FILE), JSON.stringify(embedder.toJSON()));
    writeIndexPapers(folder, { ids, dead: [] }, digests);
    const counts = { passages: table.count, rows: table.count, deadRows: 0 };
    const vectors = { embedderId: embedder?.id ?? null, dimensions: embedder?.dimensions ?? null };
    const ann = annForGeneration(folder, { ...counts, ...vectors }, { ids, dead: [] }, options.ann);
    const manifest: IndexManifest = {
      format: INDEX_FORMAT,
      createdAt: new Date().toISOString(),
      builtBy: options.version,
      generation,
      papers: ids.length,
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
      ...(ann ? { ann } : {}),
    };
    assertSameCount(header.documents, table.count);
    commitManifest(dir, manifest);
    removeLeftovers(dir, generation);
    return manifest;
  } catch (error) {
    table.abandon();
    sinks.abandon();
    rmSync(folder, { recursive: true, force: true });
    throw error;
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
    'version' | 'batchSize' | 'onProgress' | 'total' | 'segmentPostings' | 'corpusToken' | 'ann'
  > {
  /** The index's embedder, restored as built (a fitted LSA from its saved model), or null without vectors. */
  embedder: Embedder | null;
  /** The index's paper files if the freshness check read them (`IndexCheck`), else read here. */
  papers?: PaperFiles | null;
}

/**
 * Updates an index in place of a rebuild: the papers to add are cut, analysed and embedded into a
 * new BM25 part appended after the existing ones, and the papers removed or changed are tombstoned
 * (their rows are left out of every query and of BM25's statistics, so every BM25 score is the one
 * a rebuild gives). The earlier parts are hard-linked into the new generation folder and the
 * passage table and vectors copied and appended to, so the previous generation stays intact until
 * the new manifest is committed, as with a build. Tombstones are dropped when the index is next
 * rebuilt (`indexCorpus` rebuilds once they or the parts grow past its limits).
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
  let sinks: Sinks | null = null;
  try {
    for (let i = 0; i < parts.length; i++) linkFolder(partFolder(prevFolder, i), partFolder(folder, i));
    if (existsSync(join(prevFolder, MODEL_FILE)))
      copyFileSync(join(prevFolder, MODEL_FILE), join(folder, MODEL_FILE));
    table = new PassageTableWriter(folder, { dir: prevFolder, rows, documents: before.ids.length });
    const dense =
      embedder && previous.dimensions !== null
        ? new DenseFileWriter(folder, { dir: prevFolder, count: rows, dimensions: previous.dimensions })
        : null;
    sinks = openSinks(folder, parts.length, table, dense, embedder, {
      ...options,
      maxTokens: previous.maxTokens,
      includeReferences: previous.includeReferences ?? false,
    });
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
    const ids = [...before.ids];
    const digests = [...beforeDigests];
    await appendDocuments(update.add(), sinks, { ids, digests, sample: null, fitting: false, options });
    table.close();
    const header = sinks.bm25.finish(BM25_BUILD_PARAMS);
    if (embedder && dense) dense.close(embedder.id, embedder.dimensions);
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
      ...(ann ? { ann } : {}),
    };
    commitManifest(dir, manifest);
    removeLeftovers(dir, generation);
    return manifest;
  } catch (error) {
    table?.abandon();
    sinks?.abandon();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
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

/** Where the passages of the documents being indexed go: table, BM25 part, vectors in batches. */
interface Sinks {
  table: PassageTableWriter;
  bm25: Bm25SegmentWriter;
  dense: DenseFileWriter | null;
  chunk: (d: Document) => ReturnType<typeof chunkDocument>;
  /** Queues one text for embedding (sent in batches). */
  embed: (text: string) => Promise<void>;
  flush: () => Promise<void>;
  abandon: () => void;
}

interface SinkSettings {
  maxTokens: number;
  includeReferences: boolean;
  segmentPostings?: number | undefined;
  batchSize?: number | undefined;
}

/** Opens BM25 part `part` in `folder` and, with an embedder, the vectors (`dense`, or a new file). */
function openSinks(
  folder: string,
  part: number,
  table: PassageTableWriter,
  dense: DenseFileWriter | null,
  embedder: Embedder | null,
  settings: SinkSettings,
): Sinks {
  const partDir = partFolder(folder, part);
  mkdirSync(partDir);
  const bm25 = new Bm25SegmentWriter(partDir, DEFAULT_ANALYZER, settings.segmentPostings ?? SEGMENT_POSTINGS);
  const vectors = dense ?? (embedder ? new DenseFileWriter(folder) : null);
  const batchSize = settings.batchSize ?? 256;
  const cut = { maxTokens: settings.maxTokens, includeReferences: settings.includeReferences };
  let batch: string[] = [];
  const flush = async () => {
    if (embedder && vectors && batch.length) vectors.add(await embedder.embed(batch, 'passage'));
    batch = [];
  };
  return {
    table,
    bm25,
    dense: vectors,
    chunk: (d) => chunkDocument(d, cut),
    embed: async (text) => {
      batch.push(text);
      if (batch.length >= batchSize) await flush();
    },
    flush,
    abandon: () => {
      bm25.abandon();
      vectors?.abandon();
    },
  };
}

/**
 * Cuts each document into passages and writes them to the table, the BM25 part and the vectors
 * (or, while a corpus-fitted embedder still has to be fitted, into `sample`); records its id and digest.
 */
async function appendDocuments(
  documents: Iterable<IndexedDocument>,
  sinks: Sinks,
  state: {
    ids: string[];
    digests: string[];
    sample: StrideSample | null;
    fitting: boolean;
    options: Pick<BuildIndexOptions, 'onProgress' | 'total'>;
  },
): Promise<void> {
  const { ids, digests, sample, fitting, options } = state;
  let done = 0;
  for (const { document, digest } of documents) {
    ids.push(document.id);
    digests.push(digest);
    sinks.table.startDocument();
    for (const p of sinks.chunk(document)) {
      const { indexText, ...shown } = p;
      const text = indexText ?? p.text;
      sinks.table.add(shown as Passage);
      sinks.bm25.add(text);
      if (sample) sample.add(text);
      else if (sinks.dense) await sinks.embed(text);
    }
    // Without fitting, vectors are embedded as passages are cut: that pass is the embedding one.
    options.onProgress?.(++done, options.total ?? done, sinks.dense && !fitting ? 'embed' : 'index');
  }
  await sinks.flush();
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

/**
 * An evenly spaced sample of at most `limit` items from a stream of unknown length: every item is
 * kept until the limit; then every second kept one is dropped and the stride doubles. `complete`
 * while nothing was dropped (the sample is the whole stream, in order).
 */
class StrideSample {
  items: string[] = [];
  private stride = 1;
  private seen = 0;
  complete = true;

  constructor(private readonly limit: number) {}

  add(item: string): void {
    if (this.seen++ % this.stride !== 0) return;
    this.items.push(item);
    if (this.items.length > this.limit) {
      this.items = this.items.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
      this.complete = false;
    }
  }
}
