/**
 * Vitest global setup: every temporary file the tests make goes into one folder of this run,
 * removed at the end. Tests call `os.tmpdir()` (which reads TMPDIR) and spawn CLI processes that
 * inherit it, so pointing TMPDIR here before the test workers start catches them all, including
 * what a failing test could not clean up. KEEP_TEST_TMP=1 keeps the folder (its path is printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.KEEP_TEST_TMP === '1') process.stderr.write(`test files kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  };
}
