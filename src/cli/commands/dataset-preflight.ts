import type { Command } from 'commander';
import { CitegeistError, type Document } from '../../core/index.js';
import {
  checkDataset,
  type DatasetReadResult,
  formatDatasetProblems,
  loadDataset,
} from '../../generate/index.js';
import type { CliContext } from '../context.js';

/** Adds `--no-check` to a command that runs the dataset check first (`answer`, `grade`). */
export function addCheckOption(command: Command): Command {
  return command.option('--no-check', 'skip the dataset check (`citegeist dataset check`) before the run');
}

/**
 * Reads a dataset for a run and checks it first (`citegeist dataset check`), so that unknown paper
 * ids, empty questions, duplicate row ids or an empty file stop the command before any model is
 * called. Any layout `loadDataset` reads (Parquet included); how the file was read (an earlier
 * layout) and the check's warnings (gold evidence the strict matcher cannot find) go to stderr. With
 * `check: false` only unreadable rows stop it, as before.
 */
export async function readCheckedDataset(
  ctx: CliContext,
  path: string,
  loadPaper: ((id: string) => Promise<Document | null>) | undefined,
  check = true,
): Promise<DatasetReadResult> {
  const read = await loadDataset(path);
  for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
  const result = await checkDataset(read, check && loadPaper ? { loadPaper } : {});
  const errors = check
    ? result.errors
    : result.errors.filter((e) => e.kind === 'invalid_row' || e.kind === 'no_rows');
  if (errors.length > 0) {
    throw new CitegeistError(
      'DATASET_INVALID',
      `The dataset ${path} has ${errors.length} problem(s) that would make rows fail or count wrongly:\n${formatDatasetProblems(errors, 5).trimEnd()}`,
      `Run \`citegeist dataset check ${path}\` for the full list and fix those rows${check ? ', or pass --no-check to run anyway' : ''}.`,
    );
  }
  if (check && result.warnings.length > 0) {
    ctx.io.err(
      `dataset check: ${result.warnings.length} warning(s), e.g. ${result.warnings[0]?.where}: ${result.warnings[0]?.message} (\`citegeist dataset check\` lists them)\n`,
    );
  }
  return read;
}

/**
 * Warns about rows read without a field that changes their scores (scored as an empty list, as the
 * published code does) and adds them to `counts` (field → row ids) for the summary.
 */
export function warnMissingFields(
  ctx: CliContext,
  what: string,
  missing: Record<string, string[]>,
  counts: Record<string, string[]>,
): void {
  for (const [field, ids] of Object.entries(missing)) {
    if (ids.length === 0) continue;
    counts[field] = [...(counts[field] ?? []), ...ids];
    ctx.io.err(
      `warning: ${ids.length} ${what} row(s) have no "${field}" field and are scored as if it were an empty list (e.g. ${ids.slice(0, 3).join(', ')}); write [] where that is meant\n`,
    );
  }
}
