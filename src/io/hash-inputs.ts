import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { hashFileInto } from './read-input.js';

/**
 * SHA-256 of input files for a command's `.meta.json` (`inputs_sha256`), keyed by the path as given:
 * over each file's name and bytes, a folder's files in name order. `citegeist pack` recomputes it to
 * check that an input is still the one an output was made from.
 */
export function hashInputs(cwd: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const path = resolve(cwd, p);
    const hash = createHash('sha256');
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .sort()
          .map((f) => join(path, f))
          .filter((f) => statSync(f).isFile())
      : [path];
    for (const f of files) {
      hash.update(basename(f));
      hashFileInto(hash, f, 'input');
    }
    out[p] = hash.digest('hex');
  }
  return out;
}
