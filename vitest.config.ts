import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['src/**/*.live.test.ts', '**/*.faults.test.ts', 'node_modules/**', 'dist/**'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./scripts/test-tmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
