import { expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without type declarations
import { STAGES, violations } from './check-arch.mjs';

it('the source tree has no layering violations', () => {
  expect(STAGES[0]).toBe('core');
  expect(violations()).toEqual([]);
});
