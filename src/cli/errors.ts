import { CommanderError } from 'commander';
import { isCitegeistError } from '../core/index.js';
import type { CliIo } from './io.js';

/** Prints an error as problem + fix (stack only with --debug) and returns the exit code. */
export function reportError(error: unknown, io: CliIo, debug: boolean): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (isCitegeistError(error)) {
    io.err(`error [${error.code}]: ${error.problem}\n  fix: ${error.fix}\n`);
    if (debug && error.stack) io.err(`${error.stack}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.err(`error: ${message}\n`);
  if (debug && error instanceof Error && error.stack) io.err(`${error.stack}\n`);
  else io.err('  (run again with --debug for the stack trace; please report this as a bug)\n');
  return 1;
}
