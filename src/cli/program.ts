import { Command } from 'commander';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import { type CliContext, createContext } from './context.js';
import { reportError } from './errors.js';
import type { CliIo } from './io.js';

export function createProgram(io: CliIo): { program: Command; ctx: CliContext } {
  const program = new Command('citegeist')
    .description('Evidence-grounded question answering over scientific papers, and its evaluation.')
    .version(VERSION)
    .option('--json', 'print machine-readable JSON instead of tables', false)
    .option('--debug', 'print stack traces on errors', false)
    .option('--config <file>', 'config file (default: citegeist.config.json|yaml in the current folder)')
    .exitOverride()
    .configureOutput(output(io));
  const ctx = createContext(program, io, (argv, other) => runCli(argv, other ?? io));
  for (const register of COMMANDS) register(program, ctx);
  const configure = (command: Command) => {
    command.exitOverride().configureOutput(output(io));
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return { program, ctx };
}

/**
 * Help goes to stdout and usage errors are left to `reportError`, which prints them once with their
 * code and a one-line pointer to --help (not the whole help after a "did you mean" suggestion).
 */
function output(io: CliIo) {
  return { writeOut: (s: string) => io.out(s), writeErr: (s: string) => io.err(s), outputError: () => {} };
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code; never exits. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const { program, ctx } = createProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, io, argv.includes('--debug'));
  }
}
