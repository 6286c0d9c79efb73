/**
 * CPython's `random` module, bit for bit, for the parts the published tools use: `random.seed(int)`
 * (MT19937 seeded by `init_by_array` with the seed's 32-bit words, CPython
 * `Modules/_randommodule.c` `random_seed`), `getrandbits(k)` for k ≤ 32, `random()` (53-bit) and
 * `random.sample(population, k)` (`Lib/random.py`, 3.11: the pool or set variant chosen by
 * `setsize`, `_randbelow_with_getrandbits`). DoGMaTiQ's random baseline calls
 * `random.seed(seed); random.sample(nuggets, top_k)` (manestay/dogmatiq
 * `step4_select_top_nuggets.py`, `select_nuggets_random`), so the same seed picks the same nuggets.
 */
import { CitegeistError, quoteValue } from '../core/index.js';

const N = 624;
const M = 397;

export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  /** `random.seed(n)` for an integer n (its absolute value, as CPython does). */
  seed(seed: number | bigint): void {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `PythonRandom: seed must be a whole number, got ${quoteValue(seed)}.`,
        'Pass an integer seed (e.g. --seed 1234).',
      );
    }
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk++) {
      const y = (mt[kk]! & 0x80000000) | (mt[(kk + 1) % N]! & 0x7fffffff);
      mt[kk] = mt[(kk + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  /** `genrand_uint32`: the next 32-bit output. */
  uint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.getrandbits(k)` for 0 ≤ k ≤ 32. */
  getrandbits(k: number): number {
    if (k === 0) return 0;
    if (k < 0 || k > 32 || !Number.isInteger(k))
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `getrandbits: k must be an integer 0..32, got ${k}.`,
        'Draw at most 32 bits at a time.',
      );
    return this.uint32() >>> (32 - k);
  }

  /** `random.random()`: a float in [0, 1) from 53 random bits. */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `_randbelow_with_getrandbits(n)`: a uniform integer in [0, n) (n < 2^32). */
  randbelow(n: number): number {
    if (n <= 0) return 0;
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** `random.sample(population, k)`: k distinct items in selection order. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) {
      throw new CitegeistError(
        'STATS_BAD_DATA',
        `Cannot sample ${quoteValue(k)} items from ${n} (Python raises "Sample larger than population or is negative").`,
        'Ask for at most as many items as there are.',
      );
    }
    const result: T[] = new Array(k);
    let setsize = 21;
    // `4 ** _ceil(_log(k * 3, 4))`: Math.log(x) / Math.log(4) is what CPython computes too.
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = [...population];
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j]!;
        pool[j] = pool[n - i - 1]!;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j]!;
      }
    }
    return result;
  }
}
