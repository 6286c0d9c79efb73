import { CitegeistError } from '../core/index.js';

/** What a file to be compared contributes: its name, the dataset it was made on, its item ids. */
export interface ComparableFile {
  name: string;
  /** sha256 of the dataset its manifest names; null when unknown (no manifest). */
  datasetSha256: string | null;
  ids: ReadonlySet<string>;
}

/** Fewest shared items a paired comparison of two files accepts unless told otherwise. */
export const MIN_SHARED_ITEMS = 2;

/**
 * Refuses files that cannot be compared item by item: two made on different datasets
 * (COMPARE_DATASET_MISMATCH), or two sharing fewer than `minShared` items
 * (COMPARE_TOO_FEW_SHARED); the message names both files and the overlap. Files of unknown dataset
 * are judged by their overlap alone.
 */
export function assertComparable(files: readonly ComparableFile[], minShared = MIN_SHARED_ITEMS): void {
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      const a = files[i]!;
      const b = files[j]!;
      let shared = 0;
      for (const id of a.ids) if (b.ids.has(id)) shared++;
      const overlap = `${shared} shared item(s) of ${a.ids.size} in ${a.name} and ${b.ids.size} in ${b.name}`;
      if (a.datasetSha256 && b.datasetSha256 && a.datasetSha256 !== b.datasetSha256) {
        throw new CitegeistError(
          'COMPARE_DATASET_MISMATCH',
          `${a.name} and ${b.name} were made on different datasets (sha256 ${a.datasetSha256.slice(0, 12)}… and ${b.datasetSha256.slice(0, 12)}…); ${overlap}.`,
          "Compare files graded on the same dataset, or regrade one of them on the other's dataset.",
        );
      }
      if (shared < minShared) {
        throw new CitegeistError(
          'COMPARE_TOO_FEW_SHARED',
          `${a.name} and ${b.name} cannot be compared item by item: ${overlap} (at least ${minShared} needed).`,
          'Check that both files cover the same questions (same dataset, same ids), or lower --min-shared.',
        );
      }
    }
  }
}
