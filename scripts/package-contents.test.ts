import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What `npm pack` (and so `npm publish`) puts in the package: what a user needs, nothing from tests.
const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('the npm package', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))(
    'holds the CLI, the library, the assets and the licence files, and no tests, fixtures or test-only helpers',
    () => {
      const [pack] = JSON.parse(
        execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      ) as [{ files: { path: string }[] }];
      const files = new Set(pack.files.map((f) => f.path));
      for (const needed of [
        'LICENSE',
        'NOTICE.md',
        'README.md',
        'package.json',
        'dist/cli/main.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/testing/index.js',
        'assets/demo/NOTICE.md',
        'assets/demo/dataset.jsonl',
        'assets/demo/papers/N18-3011.pdf',
        'assets/report/report.css',
      ])
        expect(files.has(needed), needed).toBe(true);
      const fromTests = [...files].filter((f) =>
        /\.test\.|__fixtures__|^src\/|^bench\/|^scripts\/|^docs\/|dist\/testing\/(fault-|process-faults|doc-examples|browser|nugget-fault|rouge-reference)/.test(
          f,
        ),
      );
      expect(fromTests).toEqual([]);
      // Every module the public entries import, transitively, is in the package.
      const missing: string[] = [];
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        if (!files.has(file)) return void missing.push(file);
        for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/from '(\.[^']+)'/g))
          visit(posix.join(posix.dirname(file), m[1]!));
      };
      for (const entry of ['dist/index.js', 'dist/testing/index.js', 'dist/cli/main.js']) visit(entry);
      expect(missing).toEqual([]);
      expect(seen.size).toBeGreaterThan(100);
    },
    60_000,
  );
});
