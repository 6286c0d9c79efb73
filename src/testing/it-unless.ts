import { it, type TestFunction } from 'vitest';

/**
 * `it`, whose test skips itself with `reason` when there is one (printed by the reporter:
 * `ctx.skip(reason)`), in place of `it.skipIf(reason)`, which says nothing of why. Not in
 * `citegeist/testing`: it imports vitest.
 */
export function itUnless(reason: string | null | undefined) {
  return (name: string, fn: TestFunction, timeout?: number): void =>
    it(name, reason ? (ctx) => ctx.skip(reason) : fn, timeout);
}
