/** Options of the adaptive concurrency limiter. */
export interface LimiterOptions {
  /** The most calls in flight (the user's --concurrency). */
  max: number;
  /** The fewest the limiter shrinks to under throttling (default 1). */
  min?: number;
  /** A throttle signal within this many ms of the last decrease is ignored (default 1000). */
  cooldownMs?: number;
}

/**
 * Bounds calls in flight and adapts the bound: halves it on an overload signal (429, 503, 529;
 * at most once per cooldown so one burst counts once) and grows it by one after `limit`
 * consecutive successes, up to `max` (AIMD, as TCP does).
 */
import { CitegeistError } from '../core/index.js';
export class AdaptiveLimiter {
  readonly max: number;
  private readonly min: number;
  private readonly cooldownMs: number;
  private current: number;
  private active = 0;
  private successes = 0;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(options: LimiterOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `AdaptiveLimiter: max must be a positive integer, got ${options.max}.`,
        'Pass max ≥ 1 (the most calls in flight).',
      );
    }
    this.max = options.max;
    this.min = Math.min(options.min ?? 1, this.max);
    this.cooldownMs = options.cooldownMs ?? 1000;
    this.current = this.max;
  }

  /** The current bound on calls in flight. */
  get limit(): number {
    return this.current;
  }
  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot; returns its release function. Rejects when `signal` aborts while waiting. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.current && this.waiting.length === 0) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.waiting.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  onSuccess(): void {
    this.successes++;
    if (this.current < this.max && this.successes >= this.current) {
      this.current++;
      this.successes = 0;
      this.drain();
    }
  }

  onThrottle(now = Date.now()): void {
    if (now - this.lastDecrease < this.cooldownMs) return;
    this.successes = 0;
    this.lastDecrease = now;
    this.current = Math.max(this.min, Math.floor(this.current / 2));
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.drain();
    };
  }

  /** Hands free slots to waiters in arrival order (the slot is counted before the waiter resumes). */
  private drain(): void {
    while (this.active < this.current && this.waiting.length > 0) {
      const next = this.waiting.shift();
      this.active++;
      next?.grant();
    }
  }
}
