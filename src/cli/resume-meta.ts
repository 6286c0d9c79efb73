import { existsSync } from 'node:fs';
import { CitegeistError } from '../core/index.js';
import { readJsonFile, writeFileAtomic } from '../io/index.js';

/**
 * Writes an output's `<out>.meta.json` (how it was made), refusing to resume into an output that
 * records other settings: rows made with other settings would not be comparable. The `version`
 * field (a resumed run may use a newer citegeist) and the `ignore`d fields (e.g. input hashes of
 * files a resumed run may extend) may differ.
 */
export function checkResumeMeta(
  path: string,
  meta: Record<string, unknown>,
  ignore: readonly string[] = [],
): void {
  const skip = new Set(['version', ...ignore]);
  const settings = (m: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(m).filter(([k]) => !skip.has(k)));
  const now = settings(meta);
  if (existsSync(path)) {
    const before = settings(readJsonFile(path, 'settings file', { output: true }) as Record<string, unknown>);
    if (JSON.stringify(before) !== JSON.stringify(now)) {
      throw new CitegeistError(
        'RUN_MANIFEST_MISMATCH',
        `${path} records other settings than this run (${JSON.stringify(before)} vs ${JSON.stringify(now)}).`,
        'Use a new --out file, or run with the settings recorded there.',
      );
    }
  }
  writeFileAtomic(path, `${JSON.stringify(meta, null, 2)}\n`);
}
