import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Document } from '../../core/index.js';
import { createEmbedder } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import {
  type BuildIndexOptions,
  commitManifest,
  type IndexedDocument,
  updateIndex,
  writeIndex,
} from './build-index.js';
import { type AnnRequest, annForGeneration } from './index-ann.js';
import { type IndexManifest, indexExists, loadEmbedderModel, readManifest } from './index-dir.js';
import { type PaperFiles, readPaperFiles } from './index-papers.js';
import type { ParallelSource } from './index-passes.js';
import { restoreEmbedder } from './restore-embedder.js';
import {
  type CorpusState,
  corpusStaleness,
  describeStaleness,
  type IndexStaleness,
  indexedPapers,
} from './staleness.js';

/** Whitespace tokens per passage when none is given (`chunkDocument`'s default too). */
export const DEFAULT_PASSAGE_TOKENS = 256;

/** What an index is built from and with: the settings compared with an existing index's manifest. */
export interface IndexSettings {
  /** The embedder spec of the dense side, or null for BM25 only. */
  embedderSpec: string | null;
  maxTokens: number;
  includeReferences: boolean;
}

/** The corpus as indexing reads it (a `CorpusStore` is one). */
export interface IndexableCorpus {
  digests(): Map<string, string>;
  get(id: string): Document | undefined | null;
  /**
   * Replaced whenever a document is written or removed (`CorpusStore.changeToken`); null: unknown.
   * Required, so that no adapter can leave it out: without it every freshness check reads every
   * digest (a `search` did, at 0.1 s per 14,050 papers, until it was passed through).
   */
  changeToken(): string | null;
  /** The corpus file, which worker threads open to read papers in parallel (absent: read on this thread). */
  readonly path?: string;
}

/** Papers below which an index is built on one thread (starting workers would cost more than they save). */
export const PARALLEL_MIN_PAPERS = 200;

/** Worker threads `index` uses by default: one per core, up to 8; 1 for a small corpus. */
export function defaultIndexWorkers(papers: number): number {
  return papers < PARALLEL_MIN_PAPERS ? 1 : Math.max(1, Math.min(8, availableParallelism()));
}

/** An index is updated in place (new part + tombstones) while it has fewer parts than this... */
export const MAX_INDEX_PARTS = 8;
/** ...and at most this share of its papers would be tombstoned; past either, it is rebuilt. */
export const MAX_TOMBSTONED_SHARE = 0.25;

/** An index folder against the corpus and settings: absent, up to date, or why it must be rebuilt. */
export type IndexCheck =
  | { state: 'missing' }
  | { state: 'fresh'; manifest: IndexManifest }
  | {
      state: 'stale';
      manifest: IndexManifest;
      reasons: string[];
      /** The papers added, removed or changed (null: only the settings differ). */
      staleness: IndexStaleness | null;
      /** Whether the embedder, passage budget or reference setting differ (a rebuild is needed). */
      settingsChanged: boolean;
      /** The index's paper files as the check read them (for `updateIndex`), or null when not read. */
      paperFiles: PaperFiles | null;
    };

/**
 * Compares the index in `dir` with the corpus (`corpusStaleness`: its change token, else its
 * content digests) and the settings it would be built with: a paper added, removed or changed,
 * another embedder, passage budget or reference setting each make it stale, with a reason for
 * messages.
 */
export function checkIndex(
  dir: string,
  corpus: CorpusState | ReadonlyMap<string, string>,
  settings: IndexSettings,
): IndexCheck {
  if (!indexExists(dir)) return { state: 'missing' };
  const m = readManifest(dir);
  let paperFiles: PaperFiles | null = null;
  const stale = corpusStaleness(dir, m, corpus, () =>
    indexedPapers(dir, m, (folder) => {
      paperFiles = readPaperFiles(folder);
      return paperFiles;
    }),
  );
  const changed = [
    m.embedderSpec !== settings.embedderSpec
      ? `embedder ${m.embedderSpec ?? 'none'} → ${settings.embedderSpec ?? 'none'}`
      : '',
    m.maxTokens !== settings.maxTokens ? `--max-tokens ${m.maxTokens} → ${settings.maxTokens}` : '',
    // Indexes from before this setting kept every paragraph, references included.
    (m.includeReferences ?? true) !== settings.includeReferences
      ? `references ${m.includeReferences ? 'kept' : 'left out'} → ${settings.includeReferences ? 'kept' : 'left out'}`
      : '',
  ].filter(Boolean);
  if (!stale && changed.length === 0) return { state: 'fresh', manifest: m };
  return {
    state: 'stale',
    manifest: m,
    reasons: [stale ? describeStaleness(stale) : '', ...changed].filter(Boolean),
    staleness: stale,
    settingsChanged: changed.length > 0,
    paperFiles,
  };
}

export interface IndexCorpusOptions {
  /** The embedder spec of the dense side (`lsa:256`, `openai:…`), or null for BM25 only. */
  embedder: string | null;
  /** Where an embedder's key is read from (default: none). */
  env?: Record<string, string | undefined>;
  /** Passage token budget (default `DEFAULT_PASSAGE_TOKENS`). */
  maxTokens?: number;
  /** Index bibliography entries too (default false). */
  includeReferences?: boolean;
  /** Rebuild even when the index is up to date (default false). */
  rebuild?: boolean;
  /** Called with the reasons before an existing index is rebuilt. */
  onRebuild?: (reasons: string[]) => void;
  /** Called with the reasons before an existing index is updated in place (papers appended, tombstoned). */
  onUpdate?: (reasons: string[]) => void;
  /** Called as papers are indexed and passages embedded (`pass`: which of the two). */
  onProgress?: BuildIndexOptions['onProgress'];
  /**
   * Build, certify and persist an HNSW graph of the vectors (`index --ann`); an up-to-date index
   * without one gets one. Without it, a build or update leaves the index without a graph.
   */
  ann?: AnnRequest;
  /**
   * Worker threads that read, cut, analyse and embed papers (default `defaultIndexWorkers`; 1: all
   * on this thread). The index is the same byte for byte whatever the number.
   */
  workers?: number;
}

/** `hadAnn`: whether the index had an ANN graph before (so a result without one dropped it). */
export type IndexCorpusResult =
  | { status: 'up-to-date'; manifest: IndexManifest; papers: number; hadAnn: boolean }
  | { status: 'built'; manifest: IndexManifest; papers: number; hadAnn: boolean }
  | {
      status: 'updated';
      manifest: IndexManifest;
      papers: number;
      hadAnn: boolean;
      /** Papers appended (added, or changed and re-indexed) and tombstoned (removed or changed). */
      appended: number;
      tombstoned: number;
    };

/**
 * Builds the index of a corpus in `dir` (BM25 and, with an embedder, dense vectors), unless the
 * index there is up to date with the corpus and the settings (`checkIndex`).
 */
export async function indexCorpus(
  corpus: IndexableCorpus,
  dir: string,
  options: IndexCorpusOptions,
): Promise<IndexCorpusResult> {
  // The token first: a write between the two reads then shows as a changed token next time.
  const corpusToken = corpus.changeToken();
  // Read only when needed: an index whose token matches is up to date without them.
  let read: Map<string, string> | undefined;
  const currentDigests = () => {
    read ??= corpus.digests();
    return read;
  };
  const settings: IndexSettings = {
    embedderSpec: options.embedder,
    maxTokens: options.maxTokens ?? DEFAULT_PASSAGE_TOKENS,
    includeReferences: options.includeReferences ?? false,
  };
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  const ann = options.ann ? { ann: options.ann } : {};
  const hadAnn = indexExists(dir) && Boolean(safeManifest(dir)?.ann);
  if (!options.rebuild) {
    const check = checkIndex(dir, { digests: currentDigests, changeToken: () => corpusToken }, settings);
    if (check.state === 'fresh') {
      // Same content under a new token (a re-ingest of the same files, or a corpus from before
      // tokens): record it, so that opening the index checks one row again instead of the digests.
      let manifest = check.manifest;
      if (corpusToken && manifest.corpusToken !== corpusToken) {
        manifest = { ...manifest, corpusToken };
        commitManifest(dir, manifest);
      }
      // `--ann` on an index without a graph: built into the committed generation (the manifest
      // naming it is written after, so a kill leaves the index as it was).
      if (options.ann && !manifest.ann && manifest.generation) {
        const graph = annForGeneration(join(dir, manifest.generation), manifest, undefined, options.ann);
        if (graph) {
          manifest = { ...manifest, ann: graph };
          commitManifest(dir, manifest);
        }
      }
      return { status: 'up-to-date', manifest, papers: manifest.papers ?? currentDigests().size, hadAnn };
    }
    if (check.state === 'stale') {
      const update = updatable(check);
      if (update) {
        options.onUpdate?.(check.reasons);
        const appended = [...update.added, ...update.changed];
        const wanted = new Set(appended);
        const manifest = await updateIndex(
          dir,
          check.manifest,
          {
            remove: [...update.removed, ...update.changed],
            add: () => streamDocuments(corpus, currentDigests(), (id) => wanted.has(id)),
          },
          {
            embedder: check.manifest.embedderSpec
              ? restoreEmbedder(
                  { manifest: check.manifest, embedderModel: loadEmbedderModel(dir) },
                  undefined,
                  options.env ?? {},
                )
              : null,
            version: VERSION,
            total: appended.length,
            corpusToken,
            papers: check.paperFiles,
            parallel: parallelSource(corpus, currentDigests(), (id) => wanted.has(id), options.workers),
            ...progress,
            ...ann,
          },
        );
        return {
          status: 'updated',
          manifest,
          papers: manifest.papers ?? currentDigests().size,
          hadAnn,
          appended: appended.length,
          tombstoned: update.removed.length + update.changed.length,
        };
      }
      options.onRebuild?.(check.reasons);
    }
  }
  const digests = currentDigests();
  const manifest = await writeIndex(dir, () => streamDocuments(corpus, digests, () => true), {
    maxTokens: settings.maxTokens,
    includeReferences: settings.includeReferences,
    embedder: options.embedder
      ? { spec: options.embedder, embedder: createEmbedder(options.embedder, { env: options.env ?? {} }) }
      : null,
    version: VERSION,
    total: digests.size,
    corpusToken,
    parallel: parallelSource(corpus, digests, () => true, options.workers),
    ...progress,
    ...ann,
  });
  return { status: 'built', manifest, papers: manifest.papers ?? digests.size, hadAnn };
}

/** The manifest of `dir`, or null when it cannot be read (the build then reports the problem). */
function safeManifest(dir: string): IndexManifest | null {
  try {
    return readManifest(dir);
  } catch {
    return null;
  }
}

/** The corpus file and papers for worker threads, or undefined to read them on this thread. */
function parallelSource(
  corpus: IndexableCorpus,
  digests: ReadonlyMap<string, string>,
  keep: (id: string) => boolean,
  requested: number | undefined,
): ParallelSource | undefined {
  const papers = [...digests].filter(([id]) => keep(id));
  const workers = requested ?? defaultIndexWorkers(papers.length);
  if (workers < 2 || !corpus.path || !existsSync(corpus.path)) return undefined;
  return { corpusPath: corpus.path, papers, workers };
}

/** Streamed from the corpus one paper at a time, in its order: memory does not grow with the corpus. */
function* streamDocuments(
  corpus: IndexableCorpus,
  digests: ReadonlyMap<string, string>,
  keep: (id: string) => boolean,
): Generator<IndexedDocument> {
  for (const [id, digest] of digests) {
    if (!keep(id)) continue;
    const document = corpus.get(id);
    if (document) yield { document, digest };
  }
}

/**
 * The papers to update an index with in place, or null when it must be rebuilt: settings changed,
 * an older format, as many parts as `MAX_INDEX_PARTS`, or more than `MAX_TOMBSTONED_SHARE` of its
 * papers tombstoned after the update (a rebuild is then the merge that drops them).
 */
function updatable(check: Extract<IndexCheck, { state: 'stale' }>): IndexStaleness | null {
  const { manifest: m, staleness: s } = check;
  if (!s || check.settingsChanged || s.unverifiable || s.outdatedFormat) return null;
  if ((m.parts?.length ?? MAX_INDEX_PARTS) >= MAX_INDEX_PARTS) return null;
  const papers = m.papers ?? 0;
  const rows = m.rows ?? m.passages;
  const tombstoned = s.removed.length + s.changed.length;
  if (tombstoned > MAX_TOMBSTONED_SHARE * papers) return null;
  if ((m.deadRows ?? 0) > MAX_TOMBSTONED_SHARE * rows) return null;
  return s;
}
