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
