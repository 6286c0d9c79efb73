import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { assertCurrentFormat, INDEX_FORMAT, type IndexManifest } from './index-dir.js';
import { indexedDigests, type PaperFiles, readPaperFiles } from './index-papers.js';

/** How an index differs from the corpus it was built from (document ids). */
export interface IndexStaleness {
  added: string[];
  removed: string[];
  /** Same id, other content (re-ingested). */
  changed: string[];
  /** Built before content digests were recorded (format 1): its content cannot be checked. */
  unverifiable: boolean;
  /** Written in an older index format, which this citegeist does not read: it must be rebuilt. */
  outdatedFormat?: boolean;
}

/** The corpus as the freshness check reads it (a `CorpusStore` is one). */
export interface CorpusState {
  digests(): ReadonlyMap<string, string>;
  /** Replaced whenever a document is written or removed (`CorpusStore.changeToken`); null: unknown. */
  changeToken?(): string | null;
}

/**
 * The papers an index holds, id → digest as indexed (format 4 on: from its generation folder;
 * older formats: from the manifest, digest undefined where none was recorded). `read` reads the
 * generation's paper files (a caller that keeps them for an update passes its own).
 */
export function indexedPapers(
  dir: string,
  manifest: IndexManifest,
  read: (folder: string) => PaperFiles = readPaperFiles,
): Map<string, string | undefined> {
  if (manifest.format === INDEX_FORMAT && manifest.generation)
    return indexedDigests(join(dir, manifest.generation), read(join(dir, manifest.generation)));
  return manifestPapers(manifest);
}

/** The papers an older-format manifest lists (format 4 on keeps them in its generation folder). */
function manifestPapers(manifest: IndexManifest): Map<string, string | undefined> {
  const documents = manifest.documents ?? [];
  return new Map(documents.map((id, i) => [id, manifest.digests?.[i]]));
}

/**
 * Compares the papers an index holds (`indexed`, by default as the manifest records them) with the
 * corpus's current content digests (`CorpusStore.digests`). Returns null when every document is
 * there with the content it was indexed with.
 */
export function indexStaleness(
  manifest: IndexManifest,
  current: ReadonlyMap<string, string>,
  indexed: ReadonlyMap<string, string | undefined> = manifestPapers(manifest),
): IndexStaleness | null {
  const added = [...current.keys()].filter((id) => !indexed.has(id));
  const removed = [...indexed.keys()].filter((id) => !current.has(id));
  const unverifiable =
    manifest.format < 4 &&
    (manifest.digests === undefined || manifest.digests.length !== (manifest.documents ?? []).length);
  const changed = unverifiable
    ? []
    : [...indexed].filter(([id, digest]) => current.has(id) && current.get(id) !== digest).map(([id]) => id);
  const outdatedFormat = manifest.format !== INDEX_FORMAT;
  return added.length || removed.length || changed.length || unverifiable || outdatedFormat
    ? { added, removed, changed, unverifiable, ...(outdatedFormat ? { outdatedFormat } : {}) }
    : null;
}

/** "2 papers changed (a, b), 1 added (c)": what `indexStaleness` found, for messages. */
export function describeStaleness(s: IndexStaleness): string {
  const list = (ids: string[]) =>
    `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? `, … ${ids.length - 3} more` : ''}`;
  const parts = [
    s.changed.length ? `${s.changed.length} paper(s) changed since it was built (${list(s.changed)})` : '',
    s.added.length ? `${s.added.length} added (${list(s.added)})` : '',
    s.removed.length ? `${s.removed.length} removed (${list(s.removed)})` : '',
    s.unverifiable
      ? 'it was built before content hashes were recorded, so changed papers cannot be detected'
      : '',
    s.outdatedFormat && !s.unverifiable
      ? `it was written in an index format older than ${INDEX_FORMAT}, which this citegeist does not read`
      : '',
  ].filter(Boolean);
  return parts.join('; ');
}

/**
 * How the index in `dir` differs from the corpus, or null when it matches: the one freshness check
 * (`index`, every command that opens an index, the answerers). An unchanged change token settles
 * it without reading a digest (one row, at any size); otherwise the corpus's digests are compared
 * with the papers the index holds (`indexed`, read from its generation folder by default).
 */
export function corpusStaleness(
  dir: string,
  manifest: IndexManifest,
  corpus: CorpusState | ReadonlyMap<string, string>,
  indexed: () => ReadonlyMap<string, string | undefined> = () => indexedPapers(dir, manifest),
): IndexStaleness | null {
  const state = corpus instanceof Map ? null : (corpus as CorpusState);
  if (
    state &&
    manifest.format === INDEX_FORMAT &&
    manifest.corpusToken &&
    state.changeToken?.() === manifest.corpusToken
  )
    return null;
  const current = state ? state.digests() : (corpus as ReadonlyMap<string, string>);
  return indexStaleness(manifest, current, indexed());
}

/** Throws `INDEX_STALE` when the index does not match the corpus (`corpusStaleness`). */
export function assertIndexFresh(
  dir: string,
  manifest: IndexManifest,
  corpus: CorpusState | ReadonlyMap<string, string>,
): void {
  assertCurrentFormat(dir, manifest);
  const stale = corpusStaleness(dir, manifest, corpus);
  if (!stale) return;
  throw new CitegeistError(
    'INDEX_STALE',
    `The index in ${dir} does not match the corpus: ${describeStaleness(stale)}. Results from it would miss or misquote those papers.`,
    'Update it with `citegeist index` (it rebuilds when the corpus changed), then run this again.',
  );
}
