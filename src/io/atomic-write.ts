import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CitegeistError } from '../core/index.js';

/**
 * Writes a whole file so that a reader (or a crash) sees either the old content or the new one,
 * never half: the data goes to a temporary file beside it (unique per call, so two writers never
 * share one), is fsynced, and is renamed over the target; the folder is fsynced so the rename
 * survives a power loss.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    const fd = openSync(temp, 'w');
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // not created
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new CitegeistError(
      'OUTPUT_UNWRITABLE',
      `Cannot write ${path} (${code ?? (error as Error).message}).`,
      code === 'EISDIR'
        ? 'The path names a folder: give a file name.'
        : 'Check the path, its folder and their permissions, and the free space.',
      { cause: error },
    );
  }
  fsyncDir(dir);
}

/** The temporary file name writeFileAtomic uses, with the target's name as group 1. */
const LEFTOVER = /^\.(.+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Removes the temporary files writeFileAtomic left in `dir` when its process was killed before the
 * rename, for the targets `owns` accepts. Call it only while holding the lock that guards those
 * targets: another writer's temporary file is about to be renamed.
 */
export function removeAtomicLeftovers(dir: string, owns: (target: string) => boolean): void {
  removeFilesIn(dir, (name) => {
    const target = LEFTOVER.exec(name)?.[1];
    return target !== undefined && owns(target);
  });
}

/** Removes the files of `dir` that `pick` selects by name and path; a missing folder or file is no error. */
export function removeFilesIn(dir: string, pick: (name: string, path: string) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (pick(name, path)) unlinkSync(path);
    } catch {
      // gone meanwhile
    }
  }
}

/** Writes all of `data` at the file's position (writeSync may write less than asked). */
export function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Fsyncs a folder (so a rename or a new file in it is durable); a no-op where unsupported. */
export function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported on this platform or file system
  }
}
