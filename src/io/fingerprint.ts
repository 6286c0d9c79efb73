import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { folderFiles } from './folder-files.js';
import { hashFileInto, sha256OfFile } from './read-input.js';

/**
 * The content hash of an input: a file's sha256, or for a folder (a `--papers` or `--nuggets`
 * folder) the sha256 of its files' names and contents, sorted by name (hidden files skipped, one
 * level deep, as those options read them: `folderFiles`). Null when the path does not exist.
 */
export function fingerprint(path: string): { sha256: string; size: number } | null {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return null;
  }
  if (stat.isFile()) return sha256OfFile(path, 'input');
  if (!stat.isDirectory()) return null;
  const hash = createHash('sha256');
  let size = 0;
  for (const { name, path: file } of folderFiles(path)) {
    // Name, length, then the bytes, read in pieces (a folder may hold large files).
    const length = statSync(file).size;
    size += length;
    hash.update(`${name}\u0000${length}\u0000`);
    hashFileInto(hash, file, 'input');
  }
  return { sha256: hash.digest('hex'), size };
}
