import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError, type Document } from '../../core/index.js';
import { type Embedder, LsaEmbedder, needsFitting } from '../../llm/index.js';
import { writeFailure } from '../common/index.js';
import { DenseFileWriter } from '../dense/index.js';
import { Bm25SegmentWriter, DEFAULT_ANALYZER, SEGMENT_POSTINGS } from '../lexical/index.js';
import { chunkDocument, type Passage } from '../passages/index.js';
import { INDEX_FORMAT, type IndexManifest, MANIFEST_FILE, MODEL_FILE, readManifest } from './index-dir.js';
import { PassageTableWriter } from './passage-table.js';

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
  const generation = `g-${Date.now().toString(36)}-${process.pid}`;
  const folder = join(dir, generation);
  removeLeftovers(dir, previous);
  mkdirSync(folder);
  const includeReferences = options.includeReferences ?? false;
  const chunk = (d: Document) => chunkDocument(d, { maxTokens: options.maxTokens, includeReferences });
  const embedder = options.embedder?.embedder ?? null;
  const fitting = embedder !== null && needsFitting(embedder);
  const table = new PassageTableWriter(folder);
  const bm25 = new Bm25SegmentWriter(folder, DEFAULT_ANALYZER, options.segmentPostings ?? SEGMENT_POSTINGS);
  const dense = embedder ? new DenseFileWriter(folder) : null;
  const batchSize = options.batchSize ?? 256;
  const sample = fitting ? new StrideSample(options.fitSample ?? FIT_SAMPLE) : null;
  const ids: string[] = [];
  const digests: string[] = [];
  try {
    let batch: string[] = [];
    const flush = async () => {
      if (embedder && dense && batch.length) dense.add(await embedder.embed(batch, 'passage'));
      batch = [];
    };
    let done = 0;
    for (const { document, digest } of documents()) {
      ids.push(document.id);
      digests.push(digest);
      table.startDocument();
      for (const p of chunk(document)) {
        const { indexText, ...shown } = p;
        const text = indexText ?? p.text;
        table.add(shown as Passage);
        bm25.add(text);
        if (sample) sample.add(text);
        else if (dense) {
          batch.push(text);
          if (batch.length >= batchSize) await flush();
        }
      }
      // Without fitting, vectors are embedded as passages are cut: that pass is the embedding one.
      options.onProgress?.(++done, options.total ?? done, dense && !fitting ? 'embed' : 'index');
    }
    await flush();
    table.close();
    const header = bm25.finish({ k1: 0.9, b: 0.4 });
    let fit: IndexManifest['embedderFit'] = null;
    if (fitting && embedder && dense && sample) {
      embedder.fit(sample.items);
      const fitted = sample.complete ? (embedder.takeFittedEmbeddings?.() ?? null) : null;
      fit = { passages: sample.items.length, of: table.count, sampled: !sample.complete };
      sample.items = [];
      if (fitted) dense.add(fitted);
      else {
        done = 0;
        for (const { document } of documents()) {
          for (const p of chunk(document)) {
            batch.push(p.indexText ?? p.text);
            if (batch.length >= batchSize) await flush();
          }
          options.onProgress?.(++done, options.total ?? done, 'embed');
        }
        await flush();
      }
    }
    if (embedder && dense) dense.close(embedder.id, embedder.dimensions);
    if (embedder instanceof LsaEmbedder)
      writeFileSync(join(folder, MODEL_FILE), JSON.stringify(embedder.toJSON()));
    const manifest: IndexManifest = {
      format: INDEX_FORMAT,
      createdAt: new Date().toISOString(),
      builtBy: options.version,
      generation,
      documents: ids,
      digests,
      passages: table.count,
      maxTokens: options.maxTokens,
      includeReferences,
      embedderSpec: options.embedder?.spec ?? null,
      embedderId: embedder?.id ?? null,
      dimensions: embedder?.dimensions ?? null,
      ...(fit ? { embedderFit: fit } : {}),
    };
    if (header.documents !== table.count) {
      throw new CitegeistError(
        'INTERNAL',
        `The BM25 index holds ${header.documents} passages but the passage table ${table.count}.`,
        'Report this with --debug output; rebuild with `citegeist index --rebuild`.',
      );
    }
    commitManifest(dir, manifest);
    removeLeftovers(dir, generation);
    return manifest;
  } catch (error) {
    table.abandon();
    bm25.abandon();
    dense?.abandon();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Writes the manifest to a temporary file and renames it over the old one (atomic on POSIX). */
function commitManifest(dir: string, manifest: IndexManifest): void {
  const path = join(dir, MANIFEST_FILE);
  try {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  } catch (error) {
    rmSync(`${path}.tmp`, { force: true });
    throw writeFailure(path, error);
  }
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
