import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { DenseIndex, type DenseMode } from '../dense/index.js';
import { Bm25Index } from '../lexical/index.js';
import type { Passage } from '../passages/index.js';

/** What an index folder records about how it was built (checked on load). */
export interface IndexManifest {
  /** 2 since content digests are recorded; a format-1 index cannot be checked for staleness. */
  format: 1 | 2;
  createdAt: string;
  /** citegeist version that built it. */
  builtBy?: string;
  /** Document ids indexed, in order. */
  documents: string[];
  /** Content digest of each document as indexed (`CorpusStore.digests`), aligned with `documents`. */
  digests?: string[];
  passages: number;
  maxTokens: number;
  /** Whether bibliography entries were indexed (absent in indexes built before it was recorded: false). */
  includeReferences?: boolean;
  /** The embedder spec as configured (`lsa:256`, `openai:text-embedding-3-small`, …), or null without a dense index. */
  embedderSpec: string | null;
  embedderId: string | null;
  dimensions: number | null;
}

export interface SavedIndex {
  manifest: IndexManifest;
  passages: Passage[];
  bm25: Bm25Index;
  /** Present when the index was built with an embedder. */
  dense: Buffer | null;
  /** A corpus-fitted embedder's model (e.g. LSA), saved beside the vectors. */
  embedderModel: unknown | null;
}

const FILES = {
  manifest: 'manifest.json',
  passages: 'passages.jsonl',
  bm25: 'bm25.bin',
  dense: 'dense.bin',
  model: 'embedder.json',
};

function writeAtomic(path: string, data: string | Buffer): void {
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
}

/** Writes an index folder: passages, BM25, dense vectors and the embedder model; the manifest last. */
export function saveIndex(
  dir: string,
  index: Omit<SavedIndex, 'dense'> & { dense: DenseIndex | null },
): void {
  mkdirSync(dir, { recursive: true });
  writeAtomic(
    join(dir, FILES.passages),
    index.passages.map((p) => JSON.stringify(p)).join('\n') + (index.passages.length ? '\n' : ''),
  );
  writeAtomic(join(dir, FILES.bm25), index.bm25.toBuffer());
  if (index.dense) writeAtomic(join(dir, FILES.dense), index.dense.toBuffer());
  if (index.embedderModel !== null) writeAtomic(join(dir, FILES.model), JSON.stringify(index.embedderModel));
  writeAtomic(join(dir, FILES.manifest), `${JSON.stringify(index.manifest, null, 2)}\n`);
}

export function indexExists(dir: string): boolean {
  return existsSync(join(dir, FILES.manifest));
}

export function readManifest(dir: string): IndexManifest {
  if (!indexExists(dir)) {
    throw new CitegeistError(
      'INDEX_MISSING',
      `There is no index in ${dir}.`,
      'Build it with `citegeist index`.',
    );
  }
  return JSON.parse(readFileSync(join(dir, FILES.manifest), 'utf8')) as IndexManifest;
}

/** The fitted embedder model saved with an index (LSA), or null: without reading passages or vectors. */
export function loadEmbedderModel(dir: string): unknown | null {
  const path = join(dir, FILES.model);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/** Reads an index folder (the dense vectors stay a Buffer until an embedder is known: see `openDense`). */
export function loadIndex(dir: string): SavedIndex {
  const manifest = readManifest(dir);
  const passages = readFileSync(join(dir, FILES.passages), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Passage);
  const bm25 = Bm25Index.fromBuffer(readFileSync(join(dir, FILES.bm25)), {}, join(dir, FILES.bm25));
  const densePath = join(dir, FILES.dense);
  return {
    manifest,
    passages,
    bm25,
    dense: existsSync(densePath) ? readFileSync(densePath) : null,
    embedderModel: loadEmbedderModel(dir),
  };
}

/** The dense index of a loaded folder, refusing an embedder other than the one it was built with. */
export function openDense(
  dir: string,
  saved: SavedIndex,
  embedder: { id: string; dimensions: number },
  mode: DenseMode = 'auto',
): DenseIndex {
  if (!saved.dense) {
    throw new CitegeistError(
      'INDEX_NO_VECTORS',
      `The index in ${dir} has no dense vectors.`,
      'Rebuild it with `citegeist index --rebuild --embedder <spec>`.',
    );
  }
  return DenseIndex.fromBuffer(saved.dense, embedder, join(dir, FILES.dense), mode);
}

/** The index folder of a corpus file: `index/` beside it, where `citegeist index` writes. */
export function indexDirFor(corpusPath: string): string {
  return join(dirname(corpusPath), 'index');
}
