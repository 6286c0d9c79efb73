import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this file that holds package.json. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('sharedDataPath: no package.json above this file');
    dir = up;
  }
  return dir;
}

/**
 * A path inside the shared real-data folder that sits beside the project checkout
 * (`<project>/../shared/data`), used by parity tests and benchmarks.
 */
export function sharedDataPath(...parts: string[]): string {
  return resolve(projectRoot(), '..', 'shared', 'data', ...parts);
}

/**
 * Whether the shared real-data folder (or a part of it) is there. Tests that read it use
 * `describe.skipIf(!sharedDataAvailable(…))` so that a bare checkout still passes, and say why they
 * were skipped in their title.
 */
export function sharedDataAvailable(...parts: string[]): boolean {
  return existsSync(sharedDataPath(...parts));
}
