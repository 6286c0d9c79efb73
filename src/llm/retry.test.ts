import { describe, expect, it, vi } from 'vitest';
import { localCall } from './call-policy.js';
import { type BackoffPolicy, backoff, RETRY_AFTER_CAP_MS, retryLoop } from './retry.js';
import type { WireReply } from './transport.js';

const policy: BackoffPolicy = {
  maxAttempts: 3,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
  retryDelayScale: 1,
  random: () => 0,
};

describe('backoff', () => {
  it.each([
    // [attempt, retry-after, options, ms]: equal jitter with random 0 is half the exponential step.
    [1, undefined, {}, 500],
    [3, undefined, {}, 2000],
    [1, 9000, {}, 9000],
    [1, 100, {}, 500],
    [1, 100, { retryAfterReplaces: true }, 100],
    [1, 3_600_000, {}, RETRY_AFTER_CAP_MS],
    [1, 3_600_000, { retryAfterMaxMs: 10_000 }, 10_000],
    [1, 3_600_000, { retryAfterMaxMs: 10_000, retryDelayScale: 0.5 }, 5000],
  ])('attempt %i, retry-after %s, %j → %i ms', (attempt, after, extra, ms) => {
    expect(backoff({ ...policy, ...extra }, attempt, after)).toBe(ms);
  });
});

describe('retryLoop', () => {
  it('waits between retryable failures (injected wait: no real timer) and names the attempts it used', async () => {
    const waits: number[] = [];
    let n = 0;
    const { reply, retries } = await retryLoop(
      async () => ({ ok: false as const, reason: `fail ${++n}`, retryable: true, retryAfterMs: 120_000 }),
      policy,
      { wait: async (ms) => void waits.push(ms) },
    );
    expect(reply.reason).toBe('fail 3 (gave up after 3 attempts)');
    expect(retries).toBe(2);
    expect(waits).toEqual([60_000, 60_000]);
  });

  it('stops at a failure that is not retryable', async () => {
    const waits: number[] = [];
    const result = await retryLoop(async () => ({ ok: false as const, reason: 'HTTP 400' }), policy, {
      wait: async (ms) => void waits.push(ms),
    });
    expect(result).toEqual({ reply: { ok: false, reason: 'HTTP 400' }, retries: 0 });
    expect(waits).toEqual([]);
  });
});

describe('the LLM retry policy caps a server Retry-After (retryAfterMaxMs)', () => {
  it('waits at most the cap, not the hour the server asked for', async () => {
    const replies: WireReply[] = [
      { ok: false, reason: 'HTTP 429', retryable: true, status: 429, retryAfterMs: 3_600_000 },
      { ok: true, text: 'ok', usage: null },
    ];
    const transport = {
      kind: 'openai',
      model: 'm',
      baseUrl: null,
      structuredOutput: () => 'json_schema',
      send: async () => replies.shift() as WireReply,
    };
    vi.useFakeTimers();
    try {
      const { call } = localCall('openai:m', transport, {
        retryAfterMaxMs: 100,
        retryBaseMs: 1,
        random: () => 0,
      });
      let result: unknown;
      void call({ messages: [{ role: 'user', content: 'q' }] }, undefined).then((r) => {
        result = r;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toMatchObject({ ok: true, retries: 1 });
    } finally {
      vi.useRealTimers();
    }
  });
});
