/** A concurrency limit: at most `n` functions run at once, the rest wait in FIFO order. */
export function createLimit(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  const size = Math.max(1, Math.floor(n));
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
