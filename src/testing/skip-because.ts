/**
 * A `beforeEach` hook that skips each test of its block with `reason` (printed by the reporter:
 * `ctx.skip(reason)`), when there is one; `skipIf` marks a test skipped and says nothing of why.
 */
export function skipBecause(reason: string | null | undefined) {
  return (ctx: { skip: (note?: string) => void }): void => {
    if (reason) ctx.skip(reason);
  };
}
