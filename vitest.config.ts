import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `citegeist`, as a program written against the package imports it, is the source here. */
const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^citegeist\/testing$/, replacement: src('testing/index.ts') },
      { find: /^citegeist\/internal$/, replacement: src('internal.ts') },
      { find: /^citegeist$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['src/**/*.live.test.ts', '**/*.faults.test.ts', 'node_modules/**', 'dist/**'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./scripts/test-tmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
