import { defineConfig } from 'vitest/config';

// Real-model tests: they need network and API keys, so CI never runs them (`npm run test:live`).
export default defineConfig({
  test: {
    include: ['src/**/*.live.test.ts'],
    testTimeout: 300_000,
  },
});
