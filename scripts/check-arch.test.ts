import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without type declarations
import { STAGES, violations } from './check-arch.mjs';

function tree(files: Record<string, string>): string {
  const root = join(mkdtempSync(join(tmpdir(), 'arch-')), 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

it('the source tree has no layering violations', () => {
  expect(STAGES[0]).toBe('core');
  expect(violations()).toEqual([]);
});

it.each([
  [
    'a backwards import',
    { 'text/a.ts': "import { x } from '../grade/index.js';" },
    /stage "text" imports later stage "grade"/,
  ],
  [
    'production code importing the fakes',
    { 'grade/a.ts': "import { FakeLlm } from '../testing/index.js';" },
    /imports the test doubles/,
  ],
  [
    'reaching into internals',
    { 'grade/a.ts': "import { norm } from '../text/normalize.js';" },
    /reaches into text\/normalize\.js/,
  ],
  [
    'a dynamic backwards import',
    { 'core/a.ts': "const m = await import('../cli/index.js');" },
    /stage "core" imports later stage "cli"/,
  ],
])('flags %s', (_name, files, message) => {
  expect(violations(tree(files)).join('\n')).toMatch(message);
});

it('allows forward imports through index.ts and tests importing the fakes', () => {
  const root = tree({
    'grade/a.ts': "import { matchQuote } from '../text/index.js';",
    'grade/a.test.ts': "import { FakeLlm } from '../testing/index.js'; import { x } from '../text/inner.js';",
  });
  expect(violations(root)).toEqual([]);
});
