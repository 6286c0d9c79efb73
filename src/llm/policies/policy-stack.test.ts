import { describe, expect, it } from 'vitest';
import { Budget } from '../budget.js';
import type { CachedReply, ReplyCache } from '../cache.js';
import { type CallEvent, localCall } from '../call-policy.js';
import { AdaptiveLimiter } from '../limiter.js';
import type { Transport, WireReply, WireRequest } from '../transport.js';
import { composeCall, type ModelCall } from './call-stack.js';
import { policyStack } from './policy-stack.js';

/** A transport that plays a script of replies and records what it was sent. */
function scripted(replies: WireReply[]): Transport & { sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  return {
    kind: 'openai',
    model: 'gpt-4.1-mini',
    baseUrl: 'http://127.0.0.1:1/v1',
    structuredOutput: () => 'json_schema',
    sent,
    async send(request) {
      sent.push(request);
      const next = replies.shift();
      if (!next) throw new Error('script ran out');
      return next;
    },
  };
}

class MapCache implements ReplyCache {
  readonly map = new Map<string, CachedReply>();
  get(key: string) {
    return this.map.get(key);
  }
  set(key: string, _model: string, reply: CachedReply) {
    this.map.set(key, reply);
  }
}

const ask = { messages: [{ role: 'user' as const, content: 'x'.repeat(400) }], maxTokens: 100 };
const FAST = { retryBaseMs: 0, retryDelayScale: 0, random: () => 0 };
const usage = { inputTokens: 1_000_000, outputTokens: 0 };

describe('the local policy stack', () => {
  it('answers a repeated call from the cache without budget, limiter or transport', async () => {
    const transport = scripted([{ ok: true, text: 'hi', usage }]);
    const cache = new MapCache();
    const budget = new Budget(10);
    const events: CallEvent[] = [];
    const { call } = localCall('openai:gpt-4.1-mini', transport, {
      cache,
      budget,
      onCall: (e) => events.push(e),
    });
    const first = await call(ask, undefined);
    const spent = budget.spentUsd;
    const second = await call(ask, undefined);
    expect(first).toMatchObject({ ok: true, text: 'hi', cached: false, retries: 0 });
    expect(spent).toBeGreaterThan(0);
    expect(second).toMatchObject({ ok: true, text: 'hi', cached: true, costUsd: 0, retries: 0 });
    expect(budget.spentUsd).toBe(spent);
    expect(transport.sent).toHaveLength(1);
    expect(events.map((e) => e.cached)).toEqual([false, true]);
  });

  it('reserves the budget once for all attempts and drops status and retry-after from the result', async () => {
    const transport = scripted([
      { ok: false, reason: 'HTTP 429', retryable: true, status: 429, retryAfterMs: 5 },
      { ok: false, reason: 'HTTP 503', retryable: true, status: 503, raw: 'busy' },
    ]);
    const budget = new Budget(10);
    const reserved: number[] = [];
    const reserve = budget.reserve.bind(budget);
    budget.reserve = (usd) => {
      reserved.push(usd ?? -1);
      return reserve(usd);
    };
    const { call } = localCall('openai:gpt-4.1-mini', transport, { budget, maxAttempts: 2, ...FAST });
    const result = await call(ask, undefined);
    expect(reserved).toHaveLength(1);
    expect(budget.reservedUsd).toBe(0);
    expect(budget.spentUsd).toBe(0);
    expect(result).toEqual({
      ok: false,
      reason: 'HTTP 503 (gave up after 2 attempts)',
      retryable: true,
      raw: 'busy',
      usage: null,
      costUsd: null,
      retries: 1,
      cached: false,
      latencyMs: expect.any(Number),
    });
  });

  it('refuses a call the budget cannot cover before it reaches the transport', async () => {
    const transport = scripted([]);
    const { call } = localCall('openai:gpt-4.1-mini', transport, { budget: new Budget(0) });
    const result = await call(ask, undefined);
    expect(result).toMatchObject({ ok: false, retries: 0, cached: false });
    expect(result.ok ? '' : result.reason).toMatch(/^budget exceeded: \$0\.0000 spent of \$0;/);
    expect(transport.sent).toHaveLength(0);
  });

  it('shrinks the limiter on an overload signal and retries outside its slot', async () => {
    const limiter = new AdaptiveLimiter({ max: 4, cooldownMs: 0 });
    const inFlight: number[] = [];
    const transport = scripted([
      { ok: false, reason: 'HTTP 429', retryable: true, status: 429 },
      { ok: true, text: 'ok', usage: null },
    ]);
    const send = transport.send.bind(transport);
    transport.send = (request, signal) => {
      inFlight.push(limiter.inFlight);
      return send(request, signal);
    };
    const { call } = localCall('openai:gpt-4.1-mini', transport, { limiter, ...FAST });
    expect(await call(ask, undefined)).toMatchObject({ ok: true, text: 'ok', retries: 1 });
    expect(limiter.limit).toBe(2);
    expect(inFlight).toEqual([1, 1]);
    expect(limiter.inFlight).toBe(0);
  });

  it('fails every call in cache-only mode without a cache, saying why', async () => {
    const { call } = localCall('openai:gpt-4.1-mini', scripted([]), { cacheMode: 'cache-only' });
    const result = await call(ask, undefined);
    expect(result.ok ? '' : result.reason).toBe('cache-only mode but no response cache is configured');
  });
});

describe('policyStack', () => {
  it('orders observe → budget → limit around a queued call and keeps its latency', async () => {
    const order: string[] = [];
    const limiter = new AdaptiveLimiter({ max: 1 });
    const budget = new Budget(1);
    const base: ModelCall = async () => {
      order.push(`base in-flight=${limiter.inFlight} reserved=${budget.reservedUsd > 0}`);
      return { ok: true, text: 't', usage: null, costUsd: null, retries: 2, cached: false, latencyMs: 1234 };
    };
    const events: CallEvent[] = [];
    const call = composeCall(
      base,
      policyStack({
        providerId: 'openai:gpt-4.1-mini',
        price: { input: 1, output: 1 },
        budget,
        onCall: (e) => events.push(e),
        limiter,
      }),
    );
    const result = await call(ask, undefined);
    expect(order).toEqual(['base in-flight=1 reserved=true']);
    expect(result).toMatchObject({ latencyMs: 1234, retries: 2 });
    expect(events).toEqual([expect.objectContaining({ latencyMs: 1234, retries: 2, ok: true })]);
    // A priced reply without usage is charged its projection: (100 input + 100 output tokens) × $1/M.
    expect(budget.spentUsd).toBeCloseTo(200 / 1e6, 12);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const call = composeCall(async () => {
      throw new Error('must not be called');
    }, []);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(call({ ...ask, signal: controller.signal }, undefined)).rejects.toThrow('stop');
  });
});
