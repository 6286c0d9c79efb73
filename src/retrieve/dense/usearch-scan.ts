import { createRequire } from 'node:module';

/**
 * The part of usearch's API the `native` kernel uses, declared here rather than imported so that the
 * code type-checks and runs where usearch is not installed: it is an optional dependency, since its
 * current release (with prebuilt binaries) declares Node ≥ 22 and npm skips it on Node 20, while the
 * last one declaring Node 20 has no prebuilt binaries (compiling it takes over ten minutes).
 */
export interface Usearch {
  exactSearch(
    dataset: Float32Array,
    queries: Float32Array,
    dimensions: number,
    count: number,
    metric: unknown,
    threads: number,
  ): { keys: ArrayLike<bigint | number>; distances: ArrayLike<number>; counts?: ArrayLike<bigint | number> };
  MetricKind: { IP: unknown };
}

let loaded: Usearch | null | undefined;

/** usearch, or null when it is not installed or its native module does not load. */
export function loadUsearch(): Usearch | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)('usearch') as Usearch;
  } catch {
    loaded = null;
  }
  return loaded;
}
