import { defineConfig } from 'vitest/config';

// The fault campaign (`npm run test:faults`, run by `.ci/run` after `npm test`): kill -9 and resume,
// concurrent writers, generated bad inputs, prompt injection, secret leaks. Its figures go in
// docs/reliability.md. Files are named `*.faults.test.ts` so the unit suite does not run them.
export default defineConfig({
  test: {
    include: ['src/**/*.faults.test.ts', 'scripts/**/*.faults.test.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./scripts/test-tmpdir.ts'],
    passWithNoTests: true,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
