import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skipBecause } from './skip-because.js';

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

const ROOT = projectRoot();
const SHARED = resolve(ROOT, '..', 'shared', 'data');
/** Small copies of shared files that the unit tests need, with their licences (README.md there). */
const BUNDLED = join(ROOT, 'src', 'testing', '__fixtures__', 'data');
/** Shared files the repository already ships elsewhere (the demo papers). */
const ELSEWHERE: Record<string, string> = {
  'papers/pdf/N18-3011.pdf': 'assets/demo/papers/N18-3011.pdf',
  'papers/pdf/2020.acl-main.207.pdf': 'assets/demo/papers/2020.acl-main.207.pdf',
  'papers/jats/PMC6398430.nxml': 'assets/demo/papers/PMC6398430.nxml',
};

/**
 * A path inside the shared real-data folder that sits beside the project checkout
 * (`<project>/../shared/data`), used by parity tests and benchmarks. Without that folder (a fresh
 * clone), the small files the unit tests need resolve to their bundled copies; a large file that is
 * not bundled keeps its shared path, and the tests that need it skip (`skipWithoutSharedData`).
 */
export function sharedDataPath(...parts: string[]): string {
  const shared = join(SHARED, ...parts);
  if (existsSync(shared)) return shared;
  const bundled = join(BUNDLED, ...parts);
  if (existsSync(bundled)) return bundled;
  const elsewhere = ELSEWHERE[parts.join('/')];
  return elsewhere && existsSync(join(ROOT, elsewhere)) ? join(ROOT, elsewhere) : shared;
}

/**
 * Why a test cannot run here: the first of `paths` (each a list of path parts under shared/data)
 * that is neither beside the checkout nor bundled; undefined when all are available.
 */
export function missingSharedData(...paths: string[][]): string | undefined {
  const missing = paths.find((parts) => !existsSync(sharedDataPath(...parts)));
  return missing
    ? `needs ../shared/data/${missing.join('/')} (large shared data, not bundled; present in CI)`
    : undefined;
}

/**
 * A `beforeEach` hook that skips each test of its block, with the reason, when shared data it needs
 * is absent: `beforeEach(skipWithoutSharedData(['qasper-dev', 'questions_validation.json']))`.
 * Read the data inside the tests (or lazily), not when the file is collected.
 */
export function skipWithoutSharedData(...paths: string[][]) {
  return skipBecause(missingSharedData(...paths));
}

/**
 * Whether the shared real-data folder (or a part of it) is there. Tests that read it use
 * `describe.skipIf(!sharedDataAvailable(…))` so that a bare checkout still passes, and say why they
 * were skipped in their title.
 */
export function sharedDataAvailable(...parts: string[]): boolean {
  return existsSync(sharedDataPath(...parts));
}
