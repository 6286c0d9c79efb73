import type { Command } from 'commander';
import { type Config, loadConfig } from './config.js';
import type { CliIo } from './io.js';

/** What every command receives: its I/O and lazy access to the global options and config. */
export interface CliContext {
  readonly io: CliIo;
  /** Global options (`--json`, `--debug`, `--config`) as parsed on the root program. */
  globals(): GlobalOptions;
  /** The workspace config, loaded once on first use. */
  config(): Config;
  /** Sets the process exit code without throwing (e.g. some rows failed but the batch finished). */
  setExitCode(code: number): void;
  readonly exitCode: number;
  /**
   * Runs another citegeist command in-process, with the same I/O or the one given (`demo` runs its
   * steps; `replay` runs a pack's steps in the replay folder with their output captured).
   */
  run(argv: string[], io?: CliIo): Promise<number>;
}

export interface GlobalOptions {
  json: boolean;
  debug: boolean;
  config?: string;
}

export function createContext(
  program: Command,
  io: CliIo,
  run: (argv: string[], io?: CliIo) => Promise<number>,
): CliContext {
  let cached: Config | undefined;
  let exitCode = 0;
  const globals = () => program.opts<GlobalOptions>();
  return {
    io,
    globals,
    config() {
      cached ??= loadConfig(io.cwd, globals().config).config;
      return cached;
    },
    setExitCode(code) {
      exitCode = Math.max(exitCode, code);
    },
    get exitCode() {
      return exitCode;
    },
    run,
  };
}

/** A command module registers its subcommand(s) on the program. */
export type RegisterCommand = (program: Command, ctx: CliContext) => void;
