import { CitegeistError, quoteValue } from '../core/index.js';

/** A seeded source of uniform numbers in [0, 1). */
export type RandomSource = () => number;

/**
 * mulberry32 (Tommy Ettinger, public domain): a 32-bit state generator with period 2³², fast and
 * statistically adequate for resampling (it passes gjrand's tests up to a few GB of output). Not
 * cryptographic. The same seed gives the same sequence on every platform, so every bootstrap and
 * randomization result is reproducible from its recorded seed.
 */
export function createRandom(seed: number): RandomSource {
  if (!Number.isInteger(seed)) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `createRandom: seed must be an integer, got ${quoteValue(seed)}.`,
      'Pass an integer seed (it is reduced modulo 2^32).',
    );
  }
  // The state is kept as a signed 32-bit integer (the same bits as the usual unsigned form, so the
  // same sequence): V8 then stores it unboxed instead of allocating a number on every call.
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in 0..n−1 from a seeded source. */
export function randomInt(random: RandomSource, n: number): number {
  return Math.floor(random() * n);
}
