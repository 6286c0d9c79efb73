import { CommanderError } from 'commander';
import { CitegeistError, describeLocation, type ErrorCode, isCitegeistError } from '../core/index.js';
import { systemError, tooDeepError } from '../io/index.js';
import type { CliIo } from './io.js';

/** Commander's own usage errors, under the codes of the one table (exit code 2, as before). */
const COMMANDER_CODES: Record<string, ErrorCode> = {
  'commander.unknownCommand': 'UNKNOWN_COMMAND',
  'commander.unknownOption': 'BAD_OPTION',
  'commander.excessArguments': 'BAD_OPTION',
  'commander.optionMissingArgument': 'BAD_OPTION',
  'commander.invalidArgument': 'BAD_OPTION',
  'commander.conflictingOption': 'CONFLICTING_OPTIONS',
  'commander.missingArgument': 'OPTION_REQUIRED',
  'commander.missingMandatoryOptionValue': 'OPTION_REQUIRED',
};

/**
 * Prints an error as `error [CODE]: problem` + fix (stack only with --debug) and returns the exit
 * code: 2 for a command line commander cannot parse, 1 otherwise. System errors that escaped a
 * reader or writer (ENOSPC, EISDIR, …) are reported under their table code; only a true bug is
 * INTERNAL.
 */
export function reportError(error: unknown, io: CliIo, debug: boolean): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0;
    const code = COMMANDER_CODES[error.code] ?? 'BAD_OPTION';
    const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
    const hint = rest
      .join(' ')
      .trim()
      .replace(/^\((.*)\)$/, '$1');
    io.err(
      `error [${code}]: ${first}\n  fix: ${hint ? `${hint} ` : ''}Run \`citegeist --help\` (or \`citegeist <command> --help\`) for the usage.\n`,
    );
    return 2;
  }
  const coded = isCitegeistError(error)
    ? error
    : tooDeepError(systemError(error, undefined, 'file', opOf(error)), 'An input');
  if (coded instanceof CitegeistError) {
    const where = coded.where ? `  where: ${describeLocation(coded.where)}\n` : '';
    io.err(`error [${coded.code}]: ${coded.problem}\n${where}  fix: ${coded.fix}\n`);
    if (debug && coded.stack) io.err(`${coded.stack}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.err(`error [INTERNAL]: ${message}\n`);
  if (debug && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
  else io.err('  fix: run again with --debug for the stack trace; please report this as a bug\n');
  return 1;
}

function opOf(error: unknown): 'read' | 'write' {
  const syscall = (error as NodeJS.ErrnoException | null)?.syscall ?? '';
  return /write|open|mkdir|rename|copyfile|unlink|fsync|close/.test(syscall) && syscall !== 'read'
    ? 'write'
    : 'read';
}
