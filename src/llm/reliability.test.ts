import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FakeAction, FakeOpenAiServer, faults } from '../testing/index.js';
import { Budget } from './budget.js';
import { ResponseCache } from './cache.js';
import type { CallEvent } from './call-policy.js';
import { createProvider } from './create-provider.js';

const Answer = z.object({ id: z.number().int(), answer: z.string() });
let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A seeded generator (mulberry32) so the fault mix is the same on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a 500-call batch against a server failing 30% of calls in mixed ways', () => {
  it('ends with every call succeeded or failed with a reason, none dropped, retries bounded', async () => {
    const random = rng(42);
    const mixed: FakeAction[] = [
      faults.rateLimit('0.01'),
      faults.serverError(500),
      faults.serverError(503),
      faults.hang(),
      faults.truncatedBody(),
      faults.invalidJson(),
      faults.ignoreSchema(),
      { status: 400, message: 'bad request: context length exceeded' },
    ];
    server = await new FakeOpenAiServer({
      latencyMs: 1,
      replies: (request) => {
        const id = Number(/call (\d+)/.exec(request.messages[0]?.content ?? '')?.[1]);
        if (random() < 0.3) return mixed[Math.floor(random() * mixed.length)] as FakeAction;
        return { text: JSON.stringify({ id, answer: `a${id}` }) };
      },
    }).start();
    const events: CallEvent[] = [];
    const maxAttempts = 4;
    const provider = createProvider(`openai-compatible:${server.url}/v1#m`, {
      concurrency: 16,
      maxAttempts,
      timeoutMs: 250,
      retryBaseMs: 1,
      retryMaxMs: 4,
      retryDelayScale: 0.1,
      onCall: (e) => events.push(e),
    });
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        provider.generateObject({
          messages: [{ role: 'user', content: `call ${i}` }],
          schema: Answer,
          maxRepairs: 2,
        }),
      ),
    );
    expect(results).toHaveLength(500);
    let ok = 0;
    for (const [i, r] of results.entries()) {
      if (r.ok) {
        ok++;
        expect(r.value.id).toBe(i);
      } else {
        expect(r.reason.length).toBeGreaterThan(5);
      }
      // transport retries per turn are bounded by maxAttempts - 1, repair turns by maxRepairs
      expect(r.retries).toBeLessThanOrEqual((maxAttempts - 1) * 3 + 2);
    }
    const failed = results.filter((r) => !r.ok);
    expect(ok + failed.length).toBe(500);
    expect(ok).toBeGreaterThan(400);
    expect(failed.every((r) => !r.ok && /HTTP 400|gave up|repair/.test(r.reason))).toBe(true);
    expect(server.unexpected).toBe(0);
    // every transport request ended in an event; no call vanished
    expect(events.length).toBeGreaterThanOrEqual(500);
  });
});

describe('structured-output negotiation', () => {
  it.each([
    [['json_schema'] as const, 'json_object', 2],
    [['json_schema', 'json_object'] as const, 'prompt', 3],
  ])('steps down when the server rejects %j', async (unsupported, mode, requests) => {
    server = await new FakeOpenAiServer({
      unsupported: [...unsupported],
      replies: [{ text: '{"id": 1, "answer": "x"}' }],
    }).start();
    const provider = createProvider(`openai-compatible:${server.url}/v1#m`, { retryBaseMs: 1 });
    const result = await provider.generateObject({
      messages: [{ role: 'user', content: 'q' }],
      schema: Answer,
    });
    expect(result).toMatchObject({ ok: true, retries: 0 });
    expect(provider.structuredOutput).toBe(mode);
    expect(server.requests).toHaveLength(requests);
    expect(server.requests.at(-1)?.messages.at(-1)?.content).toMatch(/JSON Schema/);
  });

  it('does not step down when the mode is fixed', async () => {
    server = await new FakeOpenAiServer({ unsupported: ['json_schema'] }).start();
    const provider = createProvider(`openai-compatible:${server.url}/v1#m`, {
      structuredMode: 'json_schema',
    });
    const result = await provider.generateObject({
      messages: [{ role: 'user', content: 'q' }],
      schema: Answer,
    });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/HTTP 400.*not supported/) });
  });
});

describe('budget', () => {
  it('starts no call once the projected spend would pass the budget', async () => {
    server = await new FakeOpenAiServer({
      replies: () => ({ text: 'ok', usage: { input: 1000, output: 1000 } }),
    }).start();
    // gpt-4.1: $2 in / $8 out per 1M → 1000+1000 tokens = $0.01 per call; projection with maxTokens 1000 ≈ $0.008
    const budget = new Budget(0.03);
    const provider = createProvider('openai:gpt-4.1', {
      env: { OPENAI_API_KEY: 'sk-test' },
      baseUrl: `${server.url}/v1`,
      budget,
      concurrency: 1,
    });
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(
        await provider.generate({ messages: [{ role: 'user', content: `q${i}` }], maxTokens: 1000 }),
      );
    }
    const refused = results.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => !r.ok && /budget exceeded/.test(r.reason))).toBe(true);
    expect(server.requests.length).toBe(results.length - refused.length);
    expect(budget.spentUsd).toBeLessThanOrEqual(0.03);
    expect(budget.spentUsd).toBeCloseTo(server.requests.length * 0.01, 6);
  });
});

describe('secrets', () => {
  it('never writes the API key to results, errors, events or the cache file', async () => {
    const key = 'sk-SENTINEL-4f1c9e2b7a';
    server = await new FakeOpenAiServer({
      replies: [
        { text: '{"id": 1, "answer": "ok"}' },
        { status: 401, message: `Incorrect API key provided: ${key}.` },
        { status: 500, message: `upstream said ${key}` },
        { status: 500, message: `upstream said ${key}` },
      ],
    }).start();
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-secret-'));
    const cache = new ResponseCache(join(dir, 'cache.sqlite'));
    const events: CallEvent[] = [];
    const provider = createProvider('openai:gpt-4.1-mini', {
      env: { OPENAI_API_KEY: key },
      baseUrl: `${server.url}/v1`,
      cache,
      maxAttempts: 2,
      retryBaseMs: 1,
      onCall: (e) => events.push(e),
    });
    const outputs = [
      await provider.generateObject({ messages: [{ role: 'user', content: 'a' }], schema: Answer }),
      await provider.generate({ messages: [{ role: 'user', content: 'b' }] }),
      await provider.generate({ messages: [{ role: 'user', content: 'c' }] }),
    ];
    cache.close();
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    const text = JSON.stringify({ outputs, events, provider }) + String(provider.transport.baseUrl);
    expect(outputs[1]).toMatchObject({ ok: false, reason: expect.stringMatching(/\[redacted\]/) });
    expect(text.includes(key)).toBe(false);
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file)).includes(key)).toBe(false);
    }
  });
});
