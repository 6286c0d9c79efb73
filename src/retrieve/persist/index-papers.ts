import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIndexJson } from '../common/index.js';

/**
 * The papers of an index generation, kept beside its files rather than in the manifest, so that
 * opening an index reads a manifest of a few hundred bytes whatever the corpus size: the ids are
 * read when the first hit is named, the digests only when the corpus changed since the build.
 */
export const PAPER_FILES = {
  /** `{ ids, dead }`: document ids in passage-table order; `dead` the positions removed or replaced since. */
  ids: 'papers.json',
  /** The content digest of each id as indexed (`CorpusStore.digests`), aligned with `ids`. */
  digests: 'digests.json',
} as const;

export interface IndexPapers {
  /** Every document of the passage table, in order; a changed paper appears again at its new place. */
  ids: string[];
  /** Positions in `ids` of documents removed or replaced since they were indexed (tombstones), ascending. */
  dead: number[];
}

export function writeIndexPapers(folder: string, papers: IndexPapers, digests: readonly string[]): void {
  writeFileSync(join(folder, PAPER_FILES.ids), JSON.stringify(papers));
  writeFileSync(join(folder, PAPER_FILES.digests), JSON.stringify(digests));
}

/** A generation's two paper files as read: read once by the freshness check and passed on to an update. */
export interface PaperFiles {
  papers: IndexPapers;
  /** `digests.json`, aligned with `papers.ids`. */
  digests: string[];
}

export function readIndexPapers(folder: string): IndexPapers {
  return readIndexJson<IndexPapers>(join(folder, PAPER_FILES.ids));
}

export function readPaperFiles(folder: string): PaperFiles {
  return {
    papers: readIndexPapers(folder),
    digests: readIndexJson<string[]>(join(folder, PAPER_FILES.digests)),
  };
}

/** The live papers of an index generation: id → digest as indexed (tombstoned ones left out). */
export function indexedDigests(
  folder: string,
  files: PaperFiles = readPaperFiles(folder),
): Map<string, string> {
  const { papers, digests } = files;
  const dead = new Set(papers.dead);
  const out = new Map<string, string>();
  papers.ids.forEach((id, i) => {
    if (!dead.has(i)) out.set(id, digests[i] as string);
  });
  return out;
}
