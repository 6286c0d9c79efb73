import type { CliIo } from './io.js';
import { stopRunningProgress } from './progress-registry.js';

/** The exit code of a process ended by a signal, as shells report it: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** Shows the cursor and turns line wrap back on: what a live progress bar turned off. */
const RESTORE_TERMINAL = '\x1b[?25h\x1b[?7h';

/** Work to do before an interrupted process ends (print what is not printed yet, close a store). */
const finalizers = new Set<() => void>();

/**
 * Runs `finalize` if the process is interrupted before the returned function is called. Used for
 * what a plain exit would lose: lines a command prints only at its end, a store whose close
 * checkpoints its write-ahead log.
 */
export function atInterrupt(finalize: () => void): () => void {
  finalizers.add(finalize);
  return () => void finalizers.delete(finalize);
}

function runFinalizers(io: CliIo): void {
  for (const finalize of [...finalizers]) {
    finalizers.delete(finalize);
    try {
      finalize();
    } catch (error) {
      io.err(`while stopping: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

const DEFAULT_NOTE =
  'What finished before the interrupt is saved; run the same command again to continue from there.';

/**
 * What Ctrl-C (SIGINT) or SIGTERM does to a running command: running progress reporters stop
 * (giving the terminal back its cursor and line wrap, and printing their counts), a line says what
 * was kept and how to go on, and the process exits 130 or 143 as a signal's death would. Writes are
 * synchronous in the stages (SQLite transactions, appended run rows), and a handler runs between
 * them, so nothing half-written is left; locks are taken over from a dead holder.
 *
 * Commands that stop gracefully themselves (`serve`, `worker`) listen to the signals too: then this
 * only restores the terminal and leaves ending the process to them. A second signal ends at once.
 */
export function installInterruptHandlers(
  io: CliIo,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  let interrupted = false;
  const handle = (signal: StopSignal) => {
    const notes = stopRunningProgress();
    if (io.interactive) io.err(RESTORE_TERMINAL);
    if (process.listenerCount(signal) > 1) return; // the command's own handler ends it
    if (interrupted) return exit(SIGNAL_EXIT_CODES[signal]);
    interrupted = true;
    runFinalizers(io);
    const note = [...new Set(notes)].join(' ') || DEFAULT_NOTE;
    io.err(`interrupted by ${signal}. ${note}\n`);
    exit(SIGNAL_EXIT_CODES[signal]);
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}
