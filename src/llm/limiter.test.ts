import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './http.js';
import { AdaptiveLimiter } from './limiter.js';

describe('AdaptiveLimiter', () => {
  it('never runs more than its limit and serves waiters in order', async () => {
    const limiter = new AdaptiveLimiter({ max: 3 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const release = await limiter.acquire();
        order.push(i);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        release();
      }),
    );
    expect(peak).toBe(3);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('halves on throttling once per cooldown and grows back after successes', () => {
    const limiter = new AdaptiveLimiter({ max: 16, cooldownMs: 1000 });
    limiter.onThrottle(0);
    limiter.onThrottle(10);
    expect(limiter.limit).toBe(8);
    limiter.onThrottle(2000);
    expect(limiter.limit).toBe(4);
    for (let i = 0; i < 4; i++) limiter.onSuccess();
    expect(limiter.limit).toBe(5);
    for (let i = 0; i < 5; i++) limiter.onThrottle(10_000 * (i + 1));
    expect(limiter.limit).toBe(1);
  });

  it('rejects a waiter whose signal aborts and frees nothing', async () => {
    const limiter = new AdaptiveLimiter({ max: 1 });
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow(/stop/);
    release();
    expect(limiter.inFlight).toBe(0);
  });

  it.each([0, 1.5])('refuses max %s', (max) => {
    expect(() => new AdaptiveLimiter({ max })).toThrow(/positive integer/);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, 3000],
    [{ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, 0],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s ms', (headers, ms) => {
    expect(parseRetryAfter(new Headers(headers), now)).toBe(ms);
  });
});

describe('limiter sharing', () => {
  it('gives a one-at-a-time transport its own limiter even when a wider one is shared', async () => {
    const { limiterFor } = await import('./call-policy.js');
    const shared = new AdaptiveLimiter({ max: 8 });
    const transport = {
      kind: 'gguf',
      model: 'm.gguf',
      baseUrl: null,
      maxConcurrency: 1,
      structuredOutput: () => 'grammar',
      send: async () => ({ ok: true as const, text: 'x', usage: null }),
    };
    expect(limiterFor(transport, { limiter: shared }).max).toBe(1);
    const { maxConcurrency: _m, ...http } = transport;
    expect(limiterFor(http, { limiter: shared })).toBe(shared);
  });
});
