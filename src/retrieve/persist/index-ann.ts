import { type AnnBuildOptions, type AnnReport, buildAnnGraph } from '../dense/index.js';
import type { IndexManifest } from './index-dir.js';
import type { IndexPapers } from './index-papers.js';
import { PassageTable } from './passage-table.js';

/** `index --ann`: build (and certify) the HNSW graph of the live vectors; `true` for the defaults. */
export type AnnRequest = boolean | AnnBuildOptions;

/**
 * The graph of a generation folder whose vectors, passage table and paper files are written
 * (before its manifest is committed, or of a committed one with nothing else changed): the rows of
 * tombstoned papers are left out. Null when no graph is asked for or the index has no vectors.
 */
export function annForGeneration(
  folder: string,
  manifest: Pick<IndexManifest, 'passages' | 'rows' | 'deadRows' | 'embedderId' | 'dimensions'>,
  papers: IndexPapers | undefined,
  request: AnnRequest | undefined,
): AnnReport | null {
  if (!request || !manifest.embedderId || manifest.dimensions === null) return null;
  const table = new PassageTable(folder, manifest, papers);
  let dead: Uint8Array | null;
  try {
    dead = table.deadMask();
  } finally {
    table.close();
  }
  return buildAnnGraph(
    folder,
    {
      embedderId: manifest.embedderId,
      count: manifest.rows ?? manifest.passages,
      dimensions: manifest.dimensions,
      dead,
    },
    request === true ? {} : request,
  );
}
