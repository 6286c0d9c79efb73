import type { PairwiseTable, PairwiseTableOptions } from '../../stats/index.js';
import { assertComparable } from '../comparable-files.js';
import type { GradeRow } from './grade-row.js';
import { parseGradesFile } from './grades-io.js';
import { gradesPairwise } from './grades-pairwise.js';

/** A grades file as given: its name (as the user typed it) and its text. */
export interface GradesFileText {
  name: string;
  text: string;
}

/**
 * Grades files compared item by item: each parsed, refused when two were graded on different
 * datasets or share fewer than `minShared` rows (`assertComparable`), then every pair of runs on
 * every ResearchQA metric (`gradesPairwise`). What `citegeist compare` does with grades files.
 */
export function compareGradesFiles(
  files: readonly GradesFileText[],
  options: PairwiseTableOptions & { minShared?: number } = {},
): PairwiseTable {
  const rows: GradeRow[] = [];
  const comparable = files.map((f) => {
    const parsed = parseGradesFile(f.name, f.text);
    rows.push(...parsed.rows);
    return {
      name: f.name,
      datasetSha256: parsed.manifest?.inputs.dataset?.sha256 ?? null,
      ids: new Set(parsed.rows.map((r) => r.row_id)),
    };
  });
  assertComparable(comparable, options.minShared);
  return gradesPairwise(rows, options);
}
