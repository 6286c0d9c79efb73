import { CitegeistError } from '../core/index.js';
import { isAlive, type LockHolder, lockPathOf, readHolder } from './file-lock.js';

/** An input read while its writer was still writing it (graded with --allow-partial). */
export interface PartialInput {
  path: string;
  /** Who holds its lock ("citegeist answer (pid 123 on host, since …)"). */
  writer: string;
}

/**
 * Whether the output at `path` (a run, grades or results file) is still being written: its lock
 * names a live process (a lock left by a killed writer is stale and does not count). Reading it now
 * would take the rows written so far for the whole run, so a reader refuses it with RUN_INCOMPLETE;
 * with `allowPartial` it is read and the caller marks what it makes as partial.
 */
export function checkFinished(path: string, what: string, allowPartial: boolean): PartialInput | null {
  const holder = readHolder(lockPathOf(path));
  if (holder === undefined || (holder !== null && !isAlive(holder))) return null;
  const writer = describe(holder);
  if (allowPartial) return { path, writer };
  throw new CitegeistError(
    'RUN_INCOMPLETE',
    `The ${what} ${path} is still being written by ${writer}: what it holds now is a part of the run, not the run.`,
    `Wait for it to finish (or stop it and resume it to the end), then run this again; to score the rows written so far, add --allow-partial (the output is marked partial). If no process is writing it, delete ${lockPathOf(path)}.`,
  );
}

/** The label of rows read from a file still being written: its label (else its model), "(partial)". */
export function partialLabel(label: string | null | undefined, model: string): string {
  return `${label ?? model} (partial)`;
}

function describe(holder: LockHolder | null): string {
  return holder
    ? `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.started_at})`
    : 'another process (its lock file is unreadable)';
}
