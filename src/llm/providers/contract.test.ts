/**
 * One contract suite for every LlmProvider implementation: the HTTP ones against local fake servers
 * that speak each API's request/response shape; the in-process GGUF one when node-llama-cpp and a
 * model file (CITEGEIST_TEST_GGUF) are present.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type FakeAction,
  FakeAnthropicServer,
  FakeGeminiServer,
  type FakeHttpServer,
  FakeOpenAiServer,
  type FakeServerOptions,
  faults,
} from '../../testing/index.js';
import { skipBecause } from '../../testing/skip-because.js';
import { ResponseCache } from '../cache.js';
import { type CreateProviderOptions, createProvider } from '../create-provider.js';
import { dynamicImport } from '../optional-module.js';
import type { LlmProvider } from '../provider.js';

const Answer = z.object({ answer: z.string(), score: z.number().int().min(1).max(5) });
const GOOD = '{"answer": "yes", "score": 4}';
const ask = { messages: [{ role: 'user' as const, content: 'Is it grounded? Rate 1-5.' }], schema: Answer };
const FAST: CreateProviderOptions = { retryBaseMs: 1, retryMaxMs: 5, timeoutMs: 2000, maxAttempts: 3 };
const KEY = 'sk-contract-test-key-1234';

interface Subject {
  name: string;
  priced: boolean;
  server(options: FakeServerOptions): FakeHttpServer;
  provider(url: string, options: CreateProviderOptions): LlmProvider;
}

const SUBJECTS: Subject[] = [
  {
    name: 'openai',
    priced: true,
    server: (o) => new FakeOpenAiServer(o),
    provider: (url, o) =>
      createProvider('openai:gpt-4.1-mini', { ...o, env: { OPENAI_API_KEY: KEY }, baseUrl: `${url}/v1` }),
  },
  {
    name: 'openai-compatible',
    priced: false,
    server: (o) => new FakeOpenAiServer(o),
    provider: (url, o) => createProvider(`openai-compatible:${url}/v1#qwen2.5-7b-instruct`, o),
  },
  {
    name: 'ollama',
    priced: false,
    server: (o) => new FakeOpenAiServer(o),
    provider: (url, o) => createProvider('ollama:qwen2.5:7b', { ...o, env: { OLLAMA_HOST: url } }),
  },
  {
    name: 'vllm',
    priced: false,
    server: (o) => new FakeOpenAiServer(o),
    provider: (url, o) =>
      createProvider('vllm:meta-llama/Llama-3.1-8B-Instruct', { ...o, env: { VLLM_BASE_URL: `${url}/v1` } }),
  },
  {
    name: 'anthropic',
    priced: true,
    server: (o) => new FakeAnthropicServer(o),
    provider: (url, o) =>
      createProvider('anthropic:claude-sonnet-4-20250514', {
        ...o,
        env: { ANTHROPIC_API_KEY: KEY },
        baseUrl: url,
      }),
  },
  {
    name: 'gemini',
    priced: true,
    server: (o) => new FakeGeminiServer(o),
    provider: (url, o) =>
      createProvider('gemini:gemini-2.5-flash', { ...o, env: { GEMINI_API_KEY: KEY }, baseUrl: url }),
  },
];

describe.each(SUBJECTS)('LlmProvider contract: $name', (subject) => {
  let server: FakeHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const setup = async (replies: FakeAction[], options: CreateProviderOptions = {}) => {
    server = await subject.server({ replies }).start();
    return { server, provider: subject.provider(server.url, { ...FAST, ...options }) };
  };

  it('generates text with usage, latency and cost', async () => {
    const { provider } = await setup([{ text: 'Hello there.', usage: { input: 1000, output: 500 } }]);
    const result = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(result).toMatchObject({
      ok: true,
      text: 'Hello there.',
      usage: { inputTokens: 1000, outputTokens: 500 },
      retries: 0,
      cached: false,
    });
    expect(result.latencyMs).toBeGreaterThan(0);
    if (subject.priced) expect(result.costUsd).toBeGreaterThan(0);
    else expect(result.costUsd).toBeNull();
  });

  it('returns a validated object and sends the schema in the API shape', async () => {
    const { provider, server } = await setup([{ text: GOOD }]);
    const result = await provider.generateObject(ask);
    expect(result).toMatchObject({ ok: true, value: { answer: 'yes', score: 4 } });
    const sent = server.requests[0]?.schema as { properties?: Record<string, unknown> } | undefined;
    const prompt = server.requests[0]?.messages.at(-1)?.content ?? '';
    expect(sent?.properties ? Object.keys(sent.properties) : prompt).toEqual(
      sent?.properties ? ['answer', 'score'] : expect.stringMatching(/JSON Schema/),
    );
  });

  it.each([
    ['ignores the schema', faults.ignoreSchema()],
    ['sends invalid JSON', faults.invalidJson()],
    ['truncates its JSON', faults.truncatedJson(GOOD)],
  ])('repairs a reply that %s, showing the error to the model', async (_name, fault) => {
    const { provider, server } = await setup([fault, { text: GOOD }]);
    const result = await provider.generateObject(ask);
    expect(result).toMatchObject({ ok: true, value: { score: 4 }, retries: 1 });
    expect(server.requests[1]?.messages.at(-1)?.content).toMatch(/not valid/);
  });

  it('returns failed with reason and raw text after bounded repairs; never throws', async () => {
    const { provider, server } = await setup([
      faults.ignoreSchema(),
      faults.ignoreSchema(),
      faults.ignoreSchema(),
    ]);
    const result = await provider.generateObject({ ...ask, maxRepairs: 2 });
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/after 2 repair/),
      raw: expect.stringMatching(/message/),
    });
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    ['429 with retry-after', faults.rateLimit('0')],
    ['500', faults.serverError(500)],
    ['503', faults.serverError(503)],
    ['a truncated HTTP body', faults.truncatedBody()],
  ])('retries after %s and succeeds', async (_name, fault) => {
    const { provider } = await setup([fault, { text: GOOD }]);
    const result = await provider.generateObject(ask);
    expect(result).toMatchObject({ ok: true, retries: 1 });
  });

  it('times out a hanging response and retries it', async () => {
    const { provider } = await setup([faults.hang(), { text: GOOD }], { timeoutMs: 300 });
    const result = await provider.generateObject(ask);
    expect(result).toMatchObject({ ok: true, retries: 1 });
  });

  it('gives up after maxAttempts with a retryable failure', async () => {
    const { provider, server } = await setup([
      faults.serverError(),
      faults.serverError(),
      faults.serverError(),
    ]);
    const result = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(result).toMatchObject({
      ok: false,
      retryable: true,
      retries: 2,
      reason: expect.stringMatching(/HTTP 500[\s\S]*gave up after 3 attempts/),
    });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and keeps the API message', async () => {
    const { provider, server } = await setup([{ status: 400, message: 'model "x" does not exist' }]);
    const result = await provider.generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(result).toMatchObject({
      ok: false,
      retryable: false,
      reason: expect.stringMatching(/HTTP 400.*does not exist/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('rejects when the caller cancels', async () => {
    const { provider } = await setup([faults.hang()], { timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by test')), 50);
    await expect(provider.generateObject({ ...ask, signal: controller.signal })).rejects.toThrow(
      /cancelled by test/,
    );
  });

  it('serves a repeated call from the cache and fails a miss in cache-only mode', async () => {
    const cache = new ResponseCache(':memory:');
    const { provider, server } = await setup([{ text: GOOD }], { cache });
    const first = await provider.generateObject(ask);
    const second = await provider.generateObject(ask);
    expect(first).toMatchObject({ ok: true, cached: false });
    expect(second).toMatchObject({ ok: true, cached: true, value: { score: 4 } });
    expect(server.requests).toHaveLength(1);
    const cacheOnly = subject.provider(server.url, { ...FAST, cache, cacheMode: 'cache-only' });
    const miss = await cacheOnly.generateObject({ ...ask, temperature: 0.3 });
    expect(miss).toMatchObject({ ok: false, reason: expect.stringMatching(/cache miss in cache-only mode/) });
    expect(server.requests).toHaveLength(1);
  });
});

const ggufPath = process.env.CITEGEIST_TEST_GGUF;
const hasLlamaCpp = await dynamicImport('node-llama-cpp').then(
  () => true,
  () => false,
);

const ggufSkip = !hasLlamaCpp
  ? 'node-llama-cpp (an optional peer dependency) is not installed'
  : !ggufPath
    ? 'CITEGEIST_TEST_GGUF does not name a GGUF model file'
    : null;
if (ggufSkip) console.warn(`skipping the gguf provider contract: ${ggufSkip}`);

describe(`LlmProvider contract: gguf (node-llama-cpp)${ggufSkip ? ` (skipped: ${ggufSkip})` : ''}`, () => {
  beforeEach(skipBecause(ggufSkip));
  it('returns a grammar-constrained validated object', async () => {
    const provider = createProvider(`gguf:${ggufPath}`);
    const result = await provider.generateObject({ ...ask, maxTokens: 64, temperature: 0 });
    expect(result).toMatchObject({ ok: true });
  });
});

describe('Anthropic specifics', () => {
  it('wraps a non-object schema root for the tool and unwraps the reply', async () => {
    const server = await new FakeAnthropicServer({ replies: [{ text: '{"value": [3, 1, 2]}' }] }).start();
    try {
      const provider = createProvider('anthropic:claude-3-5-haiku-latest', {
        env: { ANTHROPIC_API_KEY: KEY },
        baseUrl: server.url,
      });
      const result = await provider.generateObject({
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Rank them.' },
        ],
        schema: z.array(z.number()),
        schemaName: 'rank order',
      });
      expect(result).toMatchObject({ ok: true, value: [3, 1, 2] });
      const body = server.requests[0]?.body as {
        tools: { name: string; input_schema: unknown }[];
        system: string;
      };
      expect(body.tools[0]?.name).toBe('rank_order');
      expect(body.tools[0]?.input_schema).toMatchObject({ type: 'object', required: ['value'] });
      expect(body.system).toBe('Be terse.');
      expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    } finally {
      await server.close();
    }
  });
});
