import type { Command } from 'commander';
import { MIN_SHARED_ITEMS } from '../../grade/index.js';
import { CORRECTIONS, type Correction, PAIRED_TESTS, type PairedTestName } from '../../stats/index.js';
import { choiceOption, countOption, numberOption } from './option-parsers.js';

/** The flags of a paired comparison of systems, as commander gives them. */
export interface ComparisonFlags {
  test: PairedTestName;
  correction: Correction;
  alpha: number;
  resamples: number;
  minShared: number;
}

/** Adds --test, --correction, --alpha, --resamples and --min-shared (leaderboard, compare). */
export function addComparisonOptions(command: Command): Command {
  return command
    .option(
      '--test <name>',
      `significance test of each pair: ${PAIRED_TESTS.join(' | ')}`,
      choiceOption('--test', PAIRED_TESTS),
      'randomization',
    )
    .option(
      '--correction <name>',
      `adjust p over every pair and metric of the table: ${CORRECTIONS.join(' | ')}`,
      choiceOption('--correction', CORRECTIONS),
      'holm',
    )
    .option(
      '--alpha <p>',
      'significance level of the adjusted p',
      numberOption('--alpha', { min: 1e-12, max: 0.5 }),
      0.05,
    )
    .option(
      '--resamples <n>',
      'bootstrap resamples and random sign patterns per pair',
      countOption('--resamples'),
      10_000,
    )
    .option(
      '--min-shared <n>',
      'refuse two files sharing fewer items than this',
      countOption('--min-shared'),
      MIN_SHARED_ITEMS,
    );
}

/** The pairwise-table options of the flags (the seed is the command's --seed). */
export const comparisonOptions = (flags: ComparisonFlags, seed: number) => ({
  test: flags.test,
  correction: flags.correction,
  alpha: flags.alpha,
  iterations: flags.resamples,
  seed,
});
