import type { Command } from 'commander';
import {
  type CheckCache,
  type CheckedDataset,
  type CheckOptions,
  checkReadDataset as checkReadDatasetWith,
  warnMissingFields as warnMissingFieldsWith,
} from '../../generate/index.js';
import type { PaperSourceOptions } from '../../store/index.js';
import type { CliContext } from '../context.js';

// The pre-flight itself (the check, the workspace's kept results) is the generate stage's.
export {
  type CheckCache,
  checkCacheFile,
  DATASET_CHECKS_DIR,
  keepCheck,
  readKeptCheck,
} from '../../generate/index.js';

/** Adds `--no-check` to a command that runs the dataset check first (`answer`, `grade`). */
export function addCheckOption(command: Command): Command {
  return command.option('--no-check', 'skip the dataset check (`citegeist dataset check`) before the run');
}

/** `checkReadDataset` of the generate stage, its warnings on the command's stderr. */
export function checkReadDataset(
  ctx: CliContext,
  path: string,
  read: CheckedDataset,
  loadPaper: CheckOptions['loadPaper'],
  check = true,
  cache?: CheckCache,
  evidence = true,
  source: PaperSourceOptions = {},
): Promise<void> {
  const warn = (line: string) => ctx.io.err(`${line}\n`);
  return checkReadDatasetWith(warn, path, read, loadPaper, check, cache, evidence, source);
}

/** `warnMissingFields` of the generate stage, its warnings on the command's stderr. */
export function warnMissingFields(
  ctx: CliContext,
  what: string,
  missing: Record<string, string[]>,
  counts: Record<string, string[]>,
): void {
  warnMissingFieldsWith((line) => ctx.io.err(`${line}\n`), what, missing, counts);
}
