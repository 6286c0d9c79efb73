import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without type declarations
import { cycles, STAGES, violations } from './check-arch.mjs';

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

it('the source tree has no import cycle between files', () => {
  expect(cycles()).toEqual([]);
});

it('finds a cycle through a barrel and names one loop of it', () => {
  const root = tree({
    'retrieve/common/index.ts': "export { Both } from './both.js';",
    'retrieve/common/both.ts': "import { Dense } from '../dense/index.js'; export class Both {}",
    'retrieve/dense/index.ts': "export { Dense } from './dense.js';",
    'retrieve/dense/dense.ts': "import type { Both } from '../common/index.js'; export class Dense {}",
    'retrieve/lexical/bm25.ts': "import { Both } from '../common/index.js';",
  });
  const found = cycles(root);
  expect(found).toHaveLength(1);
  expect(found[0]).toBe(
    'import cycle (4 files): src/retrieve/common/both.ts -> src/retrieve/dense/index.ts -> ' +
      'src/retrieve/dense/dense.ts -> src/retrieve/common/index.ts -> src/retrieve/common/both.ts',
  );
});

it('finds two files importing each other, and a file importing itself', () => {
  const root = tree({
    'grade/a.ts': "import { b } from './b.js'; export const a = 1;",
    'grade/b.ts': "import { a } from './a.js'; export const b = 2;",
    'grade/c.ts': "import { c as d } from './c.js'; export const c = 3;",
    'grade/d.ts': "import { a } from './a.js';",
  });
  expect(cycles(root)).toEqual([
    'import cycle (2 files): src/grade/a.ts -> src/grade/b.ts -> src/grade/a.ts',
    'import cycle (1 files): src/grade/c.ts -> src/grade/c.ts',
  ]);
});
