import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError, sha256Hex } from '../core/index.js';
import { writeFileAtomic } from '../io/index.js';
import { type PaperSourceOptions, sourceFlags } from '../store/index.js';
import { MATCH_FORMS_VERSION } from '../text/index.js';
import {
  type CheckedDataset,
  type CheckOptions,
  checkDataset,
  DATASET_CHECK_VERSION,
  type DatasetCheck,
  formatDatasetProblems,
} from './check-dataset.js';

/** Where a pre-flight writes its warnings and notes (one line each, without its newline). */
export type WarnLine = (line: string) => void;

/**
 * Checks a dataset already read (or indexed: see `checkDataset`) before a run (`citegeist dataset
 * check`), so that unknown paper ids, empty questions, duplicate row ids or an empty file stop the
 * command before any model is called: throws DATASET_INVALID on its errors, prints how many
 * warnings it has (gold evidence the strict matcher cannot find). With `check: false` only
 * unreadable rows stop it. With `cache`, a whole check kept there is used, and a new one kept.
 * `evidence: false` leaves the gold evidence out unless a kept check has it (see `checkDataset`).
 */
export async function checkReadDataset(
  warn: WarnLine,
  path: string,
  read: CheckedDataset,
  loadPaper: CheckOptions['loadPaper'],
  check = true,
  cache?: CheckCache,
  evidence = true,
  source: PaperSourceOptions = {},
): Promise<void> {
  // The fix line names the papers too: `dataset check D` alone checks no paper and finds nothing.
  const checkCommand = `citegeist dataset check ${path}${sourceFlags(source)}`;
  const withPapers = check && loadPaper !== undefined;
  const kept = cache && withPapers ? readKeptCheck(cache.file) : undefined;
  const result = kept ?? (await checkDataset(read, withPapers ? { loadPaper, evidence } : {}));
  if (cache?.write && withPapers && evidence && !kept) keepCheck(cache.file, result);
  const errors = check
    ? result.errors
    : result.errors.filter((e) => e.kind === 'invalid_row' || e.kind === 'no_rows');
  if (errors.length > 0) {
    throw new CitegeistError(
      'DATASET_INVALID',
      `The dataset ${path} has ${errors.length} problem(s) that would make rows fail or count wrongly:\n${formatDatasetProblems(errors, 5).trimEnd()}`,
      `Run \`${checkCommand}\` for the full list and fix those rows${check ? ', or pass --no-check to run anyway' : ''}.`,
    );
  }
  if (check && result.warnings.length > 0) {
    warn(
      `dataset check: ${result.warnings.length} warning(s), e.g. ${result.warnings[0]?.where}: ${result.warnings[0]?.message} (\`citegeist dataset check\` lists them)`,
    );
  }
  if (withPapers && !evidence && !kept) {
    warn(
      `note: the dataset's gold evidence was not looked for in the papers (for a large dataset that costs about as much as grading); \`${checkCommand}\` does it, and grading reports its result from then on`,
    );
  }
}

/**
 * Where the workspace keeps dataset check results, by what they depend on: the dataset file's
 * bytes, the papers' texts (and where they came from), and the versions of the check and of the
 * quote matcher's forms. Checking gold evidence against the papers is the costly part of a check
 * (for 50,000 rows with long evidence, about as long as grading them), and grading several runs
 * against one dataset would otherwise repeat it for every run.
 */
export const DATASET_CHECKS_DIR = join('.citegeist', 'dataset-checks');

/** A check result to reuse or keep: its file, and whether it may be written (not in a dry run). */
export interface CheckCache {
  file: string;
  write: boolean;
}

/** The cache entry of a check over a dataset (its sha256) and papers (`papersInput` hash). */
export function checkCacheFile(workspace: string, datasetSha256: string, papersSha256: string): string {
  const key = sha256Hex(
    JSON.stringify({
      check: DATASET_CHECK_VERSION,
      forms: MATCH_FORMS_VERSION,
      dataset: datasetSha256,
      papers: papersSha256,
    }),
  );
  return join(workspace, DATASET_CHECKS_DIR, `${key.slice(0, 32)}.json`);
}

/** The check result kept in `file`, when there is a usable one. */
export function readKeptCheck(file: string): DatasetCheck | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as DatasetCheck;
    if (Array.isArray(kept.errors) && Array.isArray(kept.warnings)) return kept;
  } catch {
    // An unreadable entry is only a cache: the check runs again and replaces it.
  }
  return undefined;
}

/** Keeps a check result in `file` (a workspace that cannot be written only loses the cache). */
export function keepCheck(file: string, result: DatasetCheck): void {
  try {
    writeFileAtomic(file, JSON.stringify(result));
  } catch {
    // Only a cache.
  }
}

/**
 * Warns about rows read without a field that changes their scores (scored as an empty list, as the
 * published code does) and adds them to `counts` (field → row ids) for the summary.
 */
export function warnMissingFields(
  warn: WarnLine,
  what: string,
  missing: Record<string, string[]>,
  counts: Record<string, string[]>,
): void {
  for (const [field, ids] of Object.entries(missing)) {
    if (ids.length === 0) continue;
    counts[field] = [...(counts[field] ?? []), ...ids];
    warn(
      `warning: ${ids.length} ${what} row(s) have no "${field}" field and are scored as if it were an empty list (e.g. ${ids.slice(0, 3).join(', ')}); write [] where that is meant`,
    );
  }
}
