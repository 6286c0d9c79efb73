import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { CitegeistError } from '../core/index.js';

/** What a lock file records about the process holding it. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The command that holds it (e.g. "citegeist answer"). */
  command: string;
  started_at: string;
  /** Linux process start time (clock ticks since boot) to tell a reused pid from the holder; else null. */
  proc_start: string | null;
  /** Unique per acquisition: tells this lock from a later one at the same path. */
  token: string;
}

/** The lock file that guards `target`. */
export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

/**
 * An exclusive, advisory lock on one output file, held by one process while it writes it: a lock
 * file beside the target (`<target>.lock`) created atomically (hard link of a complete file, so
 * it is never seen empty) and naming its holder. A lock whose holder is gone (killed with -9, say)
 * is stale and taken over — on the same host only, where the pid can be checked; a lock held on
 * another host is never broken (the error says how to remove it by hand).
 */
export class FileLock {
  private released = false;
  private lastCheck = 0;
  private readonly onExit = () => this.release();

  private constructor(
    readonly path: string,
    readonly holder: LockHolder,
    /** Stale locks that were removed on the way in (for a notice). */
    readonly tookOver: LockHolder[],
  ) {
    process.once('exit', this.onExit);
  }

  /** Takes the lock on `target`, or throws LOCK_HELD naming the process that holds it. */
  static acquire(target: string, command: string): FileLock {
    const path = lockPathOf(target);
    const holder: LockHolder = {
      pid: process.pid,
      host: hostname(),
      command,
      started_at: new Date().toISOString(),
      proc_start: procStart(process.pid),
      token: randomUUID(),
    };
    const tookOver: LockHolder[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      if (tryCreate(path, holder)) return new FileLock(path, holder, tookOver);
      const current = readHolder(path);
      if (current === undefined) continue; // released in between: try again
      if (current === null || isAlive(current)) throw lockHeld(target, path, current);
      if (removeStale(path, current)) tookOver.push(current);
    }
    throw lockHeld(target, path, readHolder(path) ?? null);
  }

  /**
   * Throws LOCK_LOST when the lock file no longer names this holder (removed by hand, or broken by
   * another process): the caller must stop writing. Checks at most once per `everyMs`.
   */
  assertHeld(everyMs = 1000): void {
    const now = Date.now();
    if (now - this.lastCheck < everyMs) return;
    this.lastCheck = now;
    if (readHolder(this.path)?.token === this.holder.token) return;
    throw new CitegeistError(
      'LOCK_LOST',
      `The lock ${this.path} no longer belongs to this process (it was removed or taken by another process); stopped writing.`,
      'Make sure one process at a time writes this file, then run the command again to resume.',
    );
  }

  /** Releases the lock (only if it is still this holder's). Safe to call twice. */
  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener('exit', this.onExit);
    if (readHolder(this.path)?.token === this.holder.token) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone
      }
    }
  }
}

/** Creates the lock file with its content in one step; false when it exists. */
function tryCreate(path: string, holder: LockHolder): boolean {
  const temp = `${path}.${holder.token}.tmp`;
  writeFileSync(temp, `${JSON.stringify(holder)}\n`);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new CitegeistError(
      'OUTPUT_UNWRITABLE',
      `Cannot create the lock file ${path} (${(error as Error).message}).`,
      'Check that the output folder is writable and on a file system that supports hard links.',
      { cause: error },
    );
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean
    }
  }
}

/** The holder a lock file names: undefined when there is no lock file, null when it is unreadable. */
export function readHolder(path: string): LockHolder | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return null;
  }
  try {
    const value = JSON.parse(text) as LockHolder;
    return typeof value.pid === 'number' && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Moves a stale lock out of the way. Rename is atomic, but between reading the stale holder and
 * renaming, another process may have replaced it with a live lock: what was moved is checked, and
 * a live lock moved by mistake is linked back.
 */
function removeStale(path: string, stale: LockHolder): boolean {
  const aside = `${path}.stale-${randomUUID()}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // someone else removed it first
  }
  const moved = readHolder(aside);
  if (moved && moved.token !== stale.token && isAlive(moved)) {
    try {
      linkSync(aside, path);
    } catch {
      // a third process locked meanwhile; the moved holder notices with assertHeld()
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
  return moved?.token === stale.token;
}

/** True unless the holder is on this host and its process is gone (or its pid was reused). */
function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const now = procStart(holder.pid);
  return holder.proc_start === null || now === null || now === holder.proc_start;
}

/** The start time of a process from /proc (Linux); null elsewhere. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function lockHeld(target: string, path: string, holder: LockHolder | null): CitegeistError {
  const who = holder
    ? `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.started_at})`
    : 'another process (its lock file is unreadable)';
  return new CitegeistError(
    'LOCK_HELD',
    `${target} is being written by ${who}; two processes must not write one file.`,
    !holder
      ? `Wait for it to finish, or write to another file. If no citegeist process is writing it, delete ${path}.`
      : holder.host !== hostname()
        ? `Wait for it to finish, or write to another file. If no process on ${holder.host} is writing it, delete ${path}.`
        : `Wait for it to finish, or write to another file (e.g. another --out).`,
  );
}
