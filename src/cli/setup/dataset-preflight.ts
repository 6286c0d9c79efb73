import type { Command } from 'commander';

/** Adds `--no-check` to a command that runs the dataset check first (`answer`, `grade`). */
export function addCheckOption(command: Command): Command {
  return command.option('--no-check', 'skip the dataset check (`citegeist dataset check`) before the run');
}
