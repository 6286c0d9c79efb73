import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fingerprint } from '../io/index.js';
import { RECIPE_ELEMENT_ID, RECIPE_PATH_LISTS, RECIPE_PATHS, type ReportRecipe } from '../report/index.js';
import { recipePathInside } from './safe-path.js';

/** Rebuilds a report from its recipe (the CLI passes its `citegeist report`). */
export type Rebuild = (reportPath: string, recipe: ReportRecipe) => Promise<void>;

const HEAD_BYTES = 256 * 1024;
const OPEN = `<script type="application/json" id="${RECIPE_ELEMENT_ID}">`;

/** The recipe a report embeds in its head, or null (not a citegeist report, or written without one). */
export function readRecipe(path: string): ReportRecipe | null {
  const fd = openSync(path, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const at = head.indexOf(OPEN);
  const end = at < 0 ? -1 : head.indexOf('</script>', at);
  if (end < 0) return null;
  try {
    const value = JSON.parse(head.slice(at + OPEN.length, end)) as ReportRecipe;
    return value && typeof value.options === 'object' && Array.isArray(value.inputs) ? value : null;
  } catch {
    return null;
  }
}

const PATH_OPTIONS = [...RECIPE_PATH_LISTS, ...RECIPE_PATHS];

/**
 * Decides whether a report must be rebuilt: some input's content hash differs from the recipe's.
 * Hashes are memoised by path, size and modification time, so an unchanged corpus is not re-read
 * on every request. A recipe that names a path outside the served folder is never followed (a
 * report dropped into the folder must not make the server read other files).
 */
export class Freshness {
  private readonly memo = new Map<string, { key: string; sha256: string | null }>();

  constructor(private readonly root: string) {}

  private hash(path: string): string | null {
    let key: string;
    try {
      const s = statSync(path);
      key = `${s.size}:${s.mtimeMs}`;
    } catch {
      return null;
    }
    const known = this.memo.get(path);
    if (known?.key === key) return known.sha256;
    const sha256 = fingerprint(path)?.sha256 ?? null;
    this.memo.set(path, { key, sha256 });
    return sha256;
  }

  /** `fresh`, `stale` (with the first changed input), or `refused` (a path outside the folder). */
  check(reportPath: string, recipe: ReportRecipe): { state: 'fresh' | 'stale' | 'refused'; detail: string } {
    const dir = dirname(reportPath);
    for (const k of PATH_OPTIONS) {
      const v = recipe.options[k];
      for (const p of Array.isArray(v) ? v : typeof v === 'string' ? [v] : []) {
        if (recipePathInside(this.root, dir, p) === null)
          return { state: 'refused', detail: `${k} ${p} is outside the served folder` };
      }
    }
    for (const input of recipe.inputs) {
      const abs = recipePathInside(this.root, dir, input.path);
      if (abs === null)
        return { state: 'refused', detail: `input ${input.path} is outside the served folder` };
      const now = this.hash(abs);
      if (now === null)
        return { state: 'fresh', detail: `input ${input.path} is missing: the report is kept as it is` };
      if (now !== input.sha256) return { state: 'stale', detail: `${input.path} changed` };
    }
    return { state: 'fresh', detail: '' };
  }
}
