import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { folderFiles } from './folder-files.js';
import { hashFileInto } from './read-input.js';

/**
 * SHA-256 of input files for a command's `.meta.json` (`inputs_sha256`), keyed by the path as given:
 * over each file's name and bytes, a folder's files in name order (hidden files skipped: `folderFiles`). `citegeist pack` recomputes it to
 * check that an input is still the one an output was made from.
 */
export function hashInputs(cwd: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const path = resolve(cwd, p);
    const hash = createHash('sha256');
    const files = statSync(path).isDirectory() ? folderFiles(path) : [{ name: basename(path), path }];
    for (const f of files) {
      hash.update(f.name);
      hashFileInto(hash, f.path, 'input');
    }
    out[p] = hash.digest('hex');
  }
  return out;
}
