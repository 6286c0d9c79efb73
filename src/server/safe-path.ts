import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export type Resolved =
  | { ok: true; path: string; segments: string[] }
  | { ok: false; status: 400 | 403 | 404; reason: string };

/** True when `path` is `root` or inside it (both absolute, already resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Maps a request path onto a file under `root` (the real path of the served folder), refusing
 * everything that could leave it: `..` and `.` segments, encoded separators and traversal
 * (`%2e%2e`, `%2f`, `%5c`), backslashes, NUL bytes, malformed escapes, hidden names (`.env`,
 * `.citegeist/` with its cache), and symbolic links whose target is outside `root`.
 */
export function resolveRequestPath(root: string, rawPath: string): Resolved {
  if (rawPath.includes('\\') || rawPath.includes('\0'))
    return { ok: false, status: 400, reason: 'bad characters in the path' };
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400, reason: 'malformed escape in the path' };
    }
    if (segment === '.' || segment === '..' || /[/\\\0]/.test(segment)) {
      return { ok: false, status: 403, reason: 'the path leaves the served folder' };
    }
    if (segment.startsWith('.')) return { ok: false, status: 404, reason: 'hidden files are not served' };
    segments.push(segment);
  }
  const joined = join(root, ...segments);
  let real: string;
  try {
    real = realpathSync(joined);
  } catch {
    return { ok: false, status: 404, reason: 'not found' };
  }
  if (!isInside(root, real))
    return { ok: false, status: 403, reason: 'the path leaves the served folder (link)' };
  return { ok: true, path: real, segments };
}

/** A path named in a report's recipe (relative to the report's folder), if it stays inside `root`. */
export function recipePathInside(root: string, reportDir: string, path: string): string | null {
  const abs = resolve(reportDir, path);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    return isInside(root, abs) ? abs : null;
  }
  return isInside(root, real) ? real : null;
}
