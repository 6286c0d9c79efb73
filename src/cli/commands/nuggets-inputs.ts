/** The `nuggets` command group and the inputs its subcommands share. */
import type { Command } from 'commander';

/** The `nuggets` command, found if another module registered it, else created. */
export function nuggetsCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'nuggets') ??
    program
      .command('nuggets')
      .description(
        'question-answer nugget banks (DoGMaTiQ): generate, score quality, select, train the selector, convert, stats',
      )
  );
}
