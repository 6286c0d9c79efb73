import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files an input folder (`--papers`, `--nuggets`, a hashed input) is made of: its regular files
 * one level deep, sorted by name, hidden ones (`.DS_Store`, `.gitkeep`) skipped, so a file the
 * system leaves behind does not change the folder's hash. Every folder hash walks it.
 */
export function folderFiles(dir: string): { name: string; path: string }[] {
  return readdirSync(dir)
    .sort()
    .filter((name) => !name.startsWith('.'))
    .map((name) => ({ name, path: join(dir, name) }))
    .filter((f) => statSync(f.path).isFile());
}
