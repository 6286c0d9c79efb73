import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodesMarkdown, isErrorCode } from './error-codes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== '__fixtures__') yield* sources(path);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) yield path;
  }
}

/** Codes written in src/ (not its test doubles): thrown (`CitegeistError('X'`) or recorded (`code: 'X'`). */
function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  const quoted = /'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g;
  for (const file of sources(join(root, 'src'))) {
    if (file.endsWith('error-codes.ts') || file.includes(`${join('src', 'testing')}`)) continue;
    const text = readFileSync(file, 'utf8');
    const spots = [
      ...[...text.matchAll(/CitegeistError\(\s*'[A-Z0-9_]+'/g)].map((m) => m[0]),
      ...text.split('\n').filter((line) => /\bcode: /.test(line)),
    ];
    for (const spot of spots)
      for (const m of spot.matchAll(quoted)) found.set(m[1] as string, file.slice(root.length + 1));
  }
  return found;
}

describe('the error-code table', () => {
  const inSource = codesInSource();

  it('holds every code written in src/', () => {
    const missing = [...inSource].filter(([code]) => !isErrorCode(code)).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
    expect(inSource.size).toBeGreaterThan(40);
  });

  it('has no code that src/ never uses, and a meaning and fix for each', () => {
    // Used: thrown or recorded, or named as a value (`'X'`), `ERROR_CODES.X` or in a message `[X]`.
    const text = [...sources(join(root, 'src'))]
      .filter((f) => !f.endsWith('error-codes.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(ERROR_CODES).filter(
      (code) =>
        !inSource.has(code) && !new RegExp(`'${code}'|ERROR_CODES\\.${code}\\b|\\[${code}\\]`).test(text),
    );
    expect(unused).toEqual([]);
    for (const info of Object.values(ERROR_CODES)) {
      expect(info.meaning).toMatch(/\.$/);
      expect(info.fix).toMatch(/[.)]$/);
    }
  });

  it('is what docs/errors.md shows (regenerate with `npm run docs:errors`)', () => {
    expect(readFileSync(join(root, 'docs', 'errors.md'), 'utf8')).toBe(errorCodesMarkdown());
  });
});
