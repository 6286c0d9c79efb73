import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import type { CliContext } from './context.js';
import type { CliIo } from './io.js';

/** The root command with the global options, before any command is added. */
function rootProgram(io: CliIo): Command {
  return new Command('citegeist')
    .description('Evidence-grounded question answering over scientific papers, and its evaluation.')
    .version(VERSION)
    .option('--json', 'print machine-readable JSON instead of tables', false)
    .option('--debug', 'print stack traces on errors', false)
    .option('--config <file>', 'config file (default: citegeist.config.json|yaml in the current folder)')
    .exitOverride()
    .configureOutput(output(io));
}

/** Every command, and those added later, reports through `io` and throws instead of exiting. */
function configureCommands(program: Command, io: CliIo): void {
  const configure = (command: Command) => {
    command.exitOverride().configureOutput(output(io));
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);
}

/**
 * The program with the commands of `only` (a top-level command name), or with every command: each
 * command's module is imported here, so a run loads the code of its own command alone.
 */
export async function createProgram(
  io: CliIo,
  only?: string,
): Promise<{ program: Command; ctx: CliContext }> {
  const program = rootProgram(io);
  const { createContext } = await import('./context.js');
  const ctx = createContext(program, io, (argv, other) => runCli(argv, other ?? io));
  // A config file named with --config is read (and refused when invalid) by every command, as
  // `answer` refuses it: one that a command does not use must not pass unnoticed when it is wrong.
  program.hook('preAction', () => {
    if (program.opts<{ config?: string }>().config !== undefined) ctx.config();
  });
  for (const entry of COMMANDS) {
    if (only === undefined || entry.names.includes(only)) (await entry.load())(program, ctx);
  }
  configureCommands(program, io);
  return { program, ctx };
}

/**
 * The program as `--help` shows it, built from the command manifest: every command with its
 * options and no action, so help, the version and a mistyped command cost no command's code.
 */
export async function helpProgram(io: CliIo): Promise<Command> {
  // Loaded here, not at the top: a command's own run needs neither the 88 KB manifest nor its reader.
  const [{ COMMAND_MANIFEST }, { addFromManifest }] = await Promise.all([
    import('./command-manifest.generated.js'),
    import('./command-manifest.js'),
  ]);
  const program = rootProgram(io);
  for (const spec of COMMAND_MANIFEST) addFromManifest(program, spec);
  configureCommands(program, io);
  return program;
}

/**
 * Help goes to stdout and usage errors are left to `reportError`, which prints them once with their
 * code and a one-line pointer to --help (not the whole help after a "did you mean" suggestion).
 */
function output(io: CliIo) {
  return { writeOut: (s: string) => io.out(s), writeErr: (s: string) => io.err(s), outputError: () => {} };
}

/** Global options that take a value (`--config <file>`): the word after them is not a command. */
const GLOBAL_WITH_VALUE = new Set(['--config']);

/**
 * The command `argv` runs, or null when it asks only for help or the version (or names no known
 * command): those are answered from the manifest.
 */
export function commandToLoad(argv: readonly string[]): string | null {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (words.some((w) => w === '--help' || w === '-h')) return null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (GLOBAL_WITH_VALUE.has(word)) i++;
    else if (word === '--version' || word === '-V') return null;
    else if (!word.startsWith('-')) return COMMANDS.some((c) => c.names.includes(word)) ? word : null;
  }
  return null;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code; never exits. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const name = commandToLoad(argv);
  try {
    if (name === null) {
      await (await helpProgram(io)).parseAsync(argv, { from: 'user' });
      return 0;
    }
    const { program, ctx } = await createProgram(io, name);
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    // Help and the version end in a CommanderError with exit code 0: nothing to report or load.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    const { reportError } = await import('./errors.js');
    return reportError(error, io, argv.includes('--debug'));
  }
}
