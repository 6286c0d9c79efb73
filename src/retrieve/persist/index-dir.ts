import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { type AnnReport, type DenseMode, DiskDenseIndex } from '../dense/index.js';
import { Bm25DiskIndex } from '../lexical/index.js';
import { PassageTable } from './passage-table.js';

/**
 * The index format this citegeist writes and reads: 5 keeps each BM25 part's block index in a
 * binary file searched by page reads (4: a JSON file parsed whole at the first query); since 4 the
 * papers are kept beside the files (the manifest stays small), the corpus's change token is
 * recorded, and BM25 is held in parts that an update appends to (3: one part, papers in the
 * manifest; read by pages from a generation folder).
 */
export const INDEX_FORMAT = 5;

/** What an index folder records about how it was built (checked on load). */
export interface IndexManifest {
  /** Only `INDEX_FORMAT` is read; older ones are refused with `INDEX_VERSION` (rebuild). */
  format: 1 | 2 | 3 | 4 | 5;
  createdAt: string;
  /** When an update last appended papers to it (absent: built in one go). */
  updatedAt?: string;
  /** citegeist version that built it. */
  builtBy?: string;
  /** The folder inside the index folder that holds this build's files (format 3 and later). */
  generation?: string;
  /** Papers indexed (live: removed and replaced ones not counted). */
  papers?: number;
  /** Formats 1–3: document ids indexed, in order (format 4 on: the generation's `papers.json`). */
  documents?: string[];
  /** Formats 2–3: content digest of each document as indexed, aligned with `documents`. */
  digests?: string[];
  /** Passages a query can return (rows of removed or replaced papers not counted). */
  passages: number;
  /** Rows of the passage table, tombstoned ones included (format 4 on). */
  rows?: number;
  /** Rows tombstoned: of papers removed or replaced since they were indexed (format 4 on). */
  deadRows?: number;
  /** Rows of each BM25 part, in passage-table order (format 4 on: one per build or update). */
  parts?: number[];
  /** The corpus's change token when the build began (`CorpusStore.changeToken`): equal means unchanged. */
  corpusToken?: string | null;
  maxTokens: number;
  /** Whether bibliography entries were indexed (absent in indexes built before it was recorded: false). */
  includeReferences?: boolean;
  /** The embedder spec as configured (`lsa:256`, `openai:text-embedding-3-small`, …), or null without a dense index. */
  embedderSpec: string | null;
  embedderId: string | null;
  dimensions: number | null;
  /**
   * A corpus-fitted embedder (LSA): how many passages it was fitted on. Above the fitting budget
   * it is fitted on an evenly spaced sample and the other passages are embedded with the model.
   * Papers added by an update are embedded with the model as fitted (`--rebuild` refits).
   */
  embedderFit?: { passages: number; of: number; sampled: boolean } | null;
  /**
   * The generation's persisted HNSW graph of the live vectors (`index --ann`) and its measured
   * recall@10 against exact search; absent without one (an update drops it: it would miss the
   * new rows). `auto` dense search uses it when present, else searches exactly.
   */
  ann?: AnnReport | null;
  /**
   * How the last build or update ran: worker threads (1: all on one thread) and the wall time of
   * each step in ms — `index` (pass 1: cut, analyse, spool), `join` (the shards' tables
   * appended), `dense` (fit and embed), `merge` (the BM25 segments merged; beside `dense` with
   * workers, so the two overlap), `total`.
   */
  build?: {
    workers: number;
    ms: { index: number; join: number; dense: number; merge: number; total: number };
  };
}

/** The BM25 part folder of part `i` in a generation folder. */
export function partFolder(folder: string, i: number): string {
  return join(folder, `part-${i}`);
}

/** An opened index: every part read by pages, nothing loaded whole. */
export interface SavedIndex {
  manifest: IndexManifest;
  /** The generation folder holding the files. */
  folder: string;
  passages: PassageTable;
  bm25: Bm25DiskIndex;
  /** A corpus-fitted embedder's model (e.g. LSA), saved beside the vectors. */
  embedderModel: unknown | null;
}

export const MANIFEST_FILE = 'manifest.json';
export const MODEL_FILE = 'embedder.json';

export function indexExists(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_FILE));
}

export function readManifest(dir: string): IndexManifest {
  if (!indexExists(dir)) {
    throw new CitegeistError(
      'INDEX_MISSING',
      `There is no index in ${dir}.`,
      'Build it with `citegeist index`.',
    );
  }
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as IndexManifest;
  } catch (error) {
    throw new CitegeistError(
      'INDEX_CORRUPT',
      `${join(dir, MANIFEST_FILE)} is not valid JSON.`,
      'Rebuild the index with `citegeist index --rebuild`.',
      { cause: error },
    );
  }
}

/** Refuses an index written in an older format (`INDEX_VERSION`, fix: rebuild). */
export function assertCurrentFormat(dir: string, manifest: IndexManifest): string {
  if (manifest.format !== INDEX_FORMAT || !manifest.generation) {
    throw new CitegeistError(
      'INDEX_VERSION',
      `The index in ${dir} was written in index format ${manifest.format}; this citegeist reads format ${INDEX_FORMAT} (read by pages, so it opens at once at any size).`,
      'Rebuild it with `citegeist index --rebuild`.',
    );
  }
  return join(dir, manifest.generation);
}

/** The fitted embedder model saved with an index (LSA), or null: without reading passages or vectors. */
export function loadEmbedderModel(dir: string): unknown | null {
  const manifest = readManifest(dir);
  const path = join(assertCurrentFormat(dir, manifest), MODEL_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/**
 * Opens an index folder: reads the manifest and the BM25 parts' headers; papers, passages,
 * postings and vectors stay on disk and are read by pages when a query needs them (an older
 * format: `INDEX_VERSION`).
 */
export function loadIndex(dir: string): SavedIndex {
  const manifest = readManifest(dir);
  const folder = assertCurrentFormat(dir, manifest);
  const passages = new PassageTable(folder, manifest);
  let base = 0;
  const parts = (manifest.parts ?? []).map((rows, i) => {
    const part = { dir: partFolder(folder, i), base, rows };
    base += rows;
    return part;
  });
  const bm25 = Bm25DiskIndex.openParts(parts, {
    idAt: (row) => passages.idAt(row),
    dead: () => passages.deadMask(),
  });
  const modelPath = join(folder, MODEL_FILE);
  let model: unknown | null | undefined;
  return {
    manifest,
    folder,
    passages,
    bm25,
    // Read when first asked for (an LSA model is megabytes of JSON a BM25 query never needs).
    get embedderModel() {
      model ??= existsSync(modelPath) ? JSON.parse(readFileSync(modelPath, 'utf8')) : null;
      return model;
    },
  };
}

/** The dense index of a loaded folder, refusing an embedder other than the one it was built with. */
export function openDense(
  dir: string,
  saved: SavedIndex,
  embedder: { id: string; dimensions: number },
  mode: DenseMode = 'auto',
): DiskDenseIndex {
  if (!saved.manifest.embedderId) {
    throw new CitegeistError(
      'INDEX_NO_VECTORS',
      `The index in ${dir} has no dense vectors.`,
      'Rebuild it with `citegeist index --rebuild --embedder <spec>`.',
    );
  }
  const table = saved.passages;
  return DiskDenseIndex.open(
    saved.folder,
    embedder,
    { idAt: (row) => table.idAt(row), rowOf: (id) => table.rowOf(id), dead: () => table.deadMask() },
    mode,
    undefined,
    saved.manifest.ann ?? null,
  );
}

/** The index folder of a corpus file: `index/` beside it, where `citegeist index` writes. */
export function indexDirFor(corpusPath: string): string {
  return join(dirname(corpusPath), 'index');
}
