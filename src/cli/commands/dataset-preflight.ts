import type { Command } from 'commander';
import { CitegeistError, type DatasetRow, type Document } from '../../core/index.js';
import { checkDataset, formatDatasetProblems, readDataset } from '../../generate/index.js';
import type { CliContext } from '../context.js';

/** Adds `--no-check` to a command that runs the dataset check first (`answer`, `grade`). */
export function addCheckOption(command: Command): Command {
  return command.option('--no-check', 'skip the dataset check (`citegeist dataset check`) before the run');
}

/**
 * Reads a dataset for a run and checks it first (`citegeist dataset check`), so that unknown paper
 * ids, empty questions, duplicate row ids or an empty file stop the command before any model is
 * called. Warnings (gold evidence the strict matcher cannot find) are summed up on stderr. With
 * `check: false` only unreadable rows stop it, as before.
 */
export async function readCheckedDataset(
  ctx: CliContext,
  path: string,
  loadPaper: ((id: string) => Promise<Document | null>) | undefined,
  check = true,
): Promise<DatasetRow[]> {
  const read = readDataset(path);
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
  return read.rows;
}
