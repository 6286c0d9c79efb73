import { CitegeistError } from '../../core/index.js';
import { assertCurrentFormat, INDEX_FORMAT, type IndexManifest } from './index-dir.js';

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

/**
 * Compares an index's manifest with the corpus's current content digests (`CorpusStore.digests`).
 * Returns null when every document is there with the content it was indexed with.
 */
export function indexStaleness(
  manifest: IndexManifest,
  current: ReadonlyMap<string, string>,
): IndexStaleness | null {
  const indexed = new Map(manifest.documents.map((id, i) => [id, manifest.digests?.[i]]));
  const added = [...current.keys()].filter((id) => !indexed.has(id));
  const removed = [...indexed.keys()].filter((id) => !current.has(id));
  const unverifiable =
    manifest.digests === undefined || manifest.digests.length !== manifest.documents.length;
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

/** Throws `INDEX_STALE` when the index does not match the corpus (see `indexStaleness`). */
export function assertIndexFresh(
  dir: string,
  manifest: IndexManifest,
  current: ReadonlyMap<string, string>,
): void {
  assertCurrentFormat(dir, manifest);
  const stale = indexStaleness(manifest, current);
  if (!stale) return;
  throw new CitegeistError(
    'INDEX_STALE',
    `The index in ${dir} does not match the corpus: ${describeStaleness(stale)}. Results from it would miss or misquote those papers.`,
    'Update it with `citegeist index` (it rebuilds when the corpus changed), then run this again.',
  );
}
