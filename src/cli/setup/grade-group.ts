import type { Command } from 'commander';
import { CitegeistError } from '../../core/index.js';
import type { CliContext } from '../context.js';

/** Output and errors of a subcommand go where the program's go (tests capture them). */
export function sameOutput(ctx: CliContext, command: Command): Command {
  return command
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
}

/**
 * `grade` is a command group: `grade researchqa` (the default, so `grade --dataset … --run …` works
 * as it always did) and `grade faithfulness` beside it. The group has no options of its own, so an
 * option given before a subcommand name (`grade --dataset X faithfulness`) is an error, not a flag
 * silently ignored.
 */
export function gradeGroup(program: Command, ctx: CliContext): Command {
  const existing = program.commands.find((c) => c.name() === 'grade');
  if (existing) return existing;
  const group = program
    .command('grade')
    .description(
      'grade answers: ResearchQA metrics (`grade researchqa`, the default) or VETSCORE (`grade faithfulness`)',
    );
  // Options before a subcommand name send everything to the default subcommand, which would then
  // complain about its own options: say what went wrong instead.
  group.hook('preSubcommand', (self, sub) => {
    const named = self.commands.find((c) => c.name() !== sub.name() && self.args.includes(c.name()));
    if (named && self.args[0] !== sub.name()) {
      throw new CitegeistError(
        'BAD_OPTION',
        `\`grade ${self.args.join(' ')}\`: options were given before the subcommand "${named.name()}".`,
        `Put them after it: \`citegeist grade ${named.name()} --…\` (see \`citegeist grade ${named.name()} --help\`).`,
      );
    }
  });
  return sameOutput(ctx, group);
}
