import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AdaptiveLimiter,
  Budget,
  type CacheMode,
  createProvider,
  type TransportProvider,
} from '../llm/index.js';
import {
  type FakeAction,
  FakeOpenAiServer,
  type FakeRequest,
  findRedisServer,
  REDIS_MISSING,
  RedisTestServer,
} from '../testing/index.js';
import { type QueueRun, queueNameFor } from './call-job.js';
import { QueueCoordinator } from './coordinator.js';
import { readQueueStatus } from './queue-status.js';
import { QueueWorker } from './queue-worker.js';
import { QueuedProvider } from './queued-provider.js';
import { RedisReplyCache } from './redis-reply-cache.js';
import { parseRedisUrl, type RedisTarget } from './redis-target.js';

const SENTINEL = 'sk-citegeist-QUEUE-SENTINEL-never-enqueue-me';
const installed = findRedisServer() !== null;
if (!installed) console.warn(`skipping the queue tests: ${REDIS_MISSING}`);

let redis: RedisTestServer;
let target: RedisTarget;
let server: FakeOpenAiServer;
let model: string;
/** What the fake model does, per test (default: echo the last message). */
let respond: (r: FakeRequest) => FakeAction = (r) => ({ text: `echo ${r.messages.at(-1)?.content}` });

beforeAll(async () => {
  if (!installed) return;
  redis = await new RedisTestServer().start();
  target = parseRedisUrl(redis.url, '--queue');
  server = await new FakeOpenAiServer({ latencyMs: 5, replies: (r) => respond(r) }).start();
  model = `openai-compatible:${server.url}/v1#fake-model`;
}, 30_000);
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
  respond = (r) => ({ text: `echo ${r.messages.at(-1)?.content}` });
  if (installed) {
    const client = new Redis(redis.port, '127.0.0.1');
    await client.flushall();
    client.disconnect();
  }
});

function worker(o: { name?: string; cache?: RedisReplyCache; models?: string[] | null } = {}): QueueWorker {
  const providers = new Map<string, TransportProvider>();
  const w = new QueueWorker({
    target,
    models: o.models === undefined ? [model] : o.models,
    concurrency: 4,
    name: o.name ?? 'w1',
    provider: (m: string, mode: CacheMode) => {
      let p = providers.get(mode + m);
      if (!p) {
        p = createProvider(m, {
          env: { OPENAI_COMPATIBLE_API_KEY: SENTINEL },
          cache: o.cache ?? null,
          cacheMode: mode,
          maxAttempts: 2,
          retryDelayScale: 0.001,
        });
        providers.set(mode + m, p);
      }
      return p;
    },
    discoverMs: 100,
    log: () => {},
  });
  open.push(w);
  return w;
}

function coordinator(o: ConstructorParameters<typeof QueueCoordinator>[1] = {}): QueueCoordinator {
  const c = new QueueCoordinator(target, { retryDelayMs: 10, ...o });
  open.push(c);
  return c;
}

const RUN: QueueRun = { id: '3f0c9a1b22d84e7a', label: 'test run', kind: 'run' };

function provider(
  c: QueueCoordinator,
  o: { budget?: Budget; prices?: Record<string, { input: number; output: number }> } = {},
) {
  return new QueuedProvider(model, {
    coordinator: c,
    run: () => RUN,
    limiter: new AdaptiveLimiter({ max: 16 }),
    budget: o.budget ?? null,
    ...(o.prices ? { prices: o.prices } : {}),
  });
}

const ask = (text: string) => ({
  messages: [{ role: 'user' as const, content: text }],
  maxTokens: 20,
  temperature: 0,
});

/** Every value stored in Redis, as text (jobs, events, registry, cache). */
async function everythingInRedis(): Promise<string> {
  const client = new Redis(redis.port, '127.0.0.1');
  const parts: string[] = [];
  for (const key of await client.keys('*')) {
    const type = await client.type(key);
    if (type === 'string') parts.push((await client.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)));
    else if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
    else if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')));
  }
  client.disconnect();
  return parts.join('\n');
}

describe.skipIf(!installed)('the queue (a real redis-server, the fake model server)', () => {
  it('runs a call on a worker: the reply comes back, the job carries the prompt and settings, never the key', async () => {
    await worker().start();
    const c = coordinator();
    await c.announce(RUN);
    const reply = await provider(c).generate(ask('what does paper 7 say?'));
    expect(reply).toMatchObject({ ok: true, text: 'echo what does paper 7 say?', cached: false });
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SENTINEL}`);
    const client = new Redis(redis.port, '127.0.0.1');
    const [key] = await client.keys(`citegeist:${queueNameFor(model)}:${RUN.id}-call-*`);
    const job = JSON.parse((await client.hget(key!, 'data')) ?? '{}');
    client.disconnect();
    expect(job).toMatchObject({
      format: 1,
      model,
      run: RUN,
      request: {
        messages: [{ role: 'user', content: 'what does paper 7 say?' }],
        maxTokens: 20,
        temperature: 0,
      },
      cacheMode: 'normal',
    });
    expect(await everythingInRedis()).not.toContain(SENTINEL);
  });

  it('validates and repairs structured output on the coordinator; the schema travels to the worker', async () => {
    await worker().start();
    let n = 0;
    respond = () => ({ text: n++ === 0 ? '{"score": "high"}' : '{"score": 4}' });
    const result = await provider(coordinator()).generateObject({
      ...ask('grade it'),
      schema: z.object({ score: z.number() }),
      schemaName: 'grade',
    });
    expect(result).toMatchObject({ ok: true, value: { score: 4 }, retries: 1 });
    const sent = server.requests.at(-1)?.body.response_format as { json_schema?: { schema?: unknown } };
    expect(sent?.json_schema?.schema).toMatchObject({ properties: { score: { type: 'number' } } });
  });

  it('a restarted coordinator takes the results it had not collected instead of calling again', async () => {
    await worker().start();
    const first = coordinator();
    const prompts = ['a', 'b', 'c', 'd', 'e'].map((x) => ask(`row ${x}`));
    const before = await Promise.all(prompts.map((p) => provider(first).generate(p)));
    const calls = server.requests.length;
    await first.close();
    const second = coordinator();
    expect(second.session).not.toBe(first.session);
    const after = await Promise.all(prompts.map((p) => provider(second).generate(p)));
    expect(after.map((r) => r.ok && r.text)).toEqual(before.map((r) => r.ok && r.text));
    expect(server.requests.length).toBe(calls);
  });

  it('a call that failed in an earlier attempt of the run is made again by the next one', async () => {
    await worker().start();
    respond = () => ({ status: 400, message: 'context too long' });
    const failed = await provider(coordinator()).generate(ask('too long'));
    expect(failed).toMatchObject({ ok: false });
    expect(!failed.ok && failed.reason).toMatch(/HTTP 400.*context too long/);
    respond = () => ({ text: 'fits now' });
    const again = await provider(coordinator()).generate(ask('too long'));
    expect(again).toMatchObject({ ok: true, text: 'fits now' });
  });

  it('a failure worth retrying is tried again as a job, then written as failed with the reason', async () => {
    await worker().start();
    respond = () => ({ status: 503, message: 'overloaded' });
    const result = await provider(coordinator()).generate(ask('busy'));
    expect(!result.ok && result.reason).toMatch(/queue job failed after 3 attempts: HTTP 503.*overloaded/);
    // 3 jobs attempts × 2 attempts inside the worker
    expect(server.requests.filter((r) => r.messages.at(-1)?.content === 'busy')).toHaveLength(6);
  });

  it('holds the budget on the coordinator: once it is spent, no job is enqueued', async () => {
    await worker().start();
    const prices = { [model]: { input: 1000, output: 1000 } };
    respond = () => ({ text: 'ok', usage: { input: 20, output: 20 } });
    // A call projects (2 + 20 tokens) × $1000 / 1M = $0.022 and costs $0.04: after two ($0.08 > $0.07
    // - $0.022), no third call may start.
    const budget = new Budget(0.07);
    const llm = provider(coordinator(), { budget, prices });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await llm.generate(ask(`q${i}`)));
    expect(results.map((r) => r.ok)).toEqual([true, true, false, false, false]);
    expect(!results[2]!.ok && results[2]!.reason).toMatch(/budget exceeded: \$0\.0800 spent of \$0\.07/);
    const client = new Redis(redis.port, '127.0.0.1');
    const jobs = await client.zcard(`citegeist:${queueNameFor(model)}:completed`);
    client.disconnect();
    expect(jobs).toBe(2);
    expect(budget.spentUsd).toBeCloseTo(0.08, 10);
  });

  it('shares one response cache between workers through Redis', async () => {
    const cacheA = new RedisReplyCache(target);
    const cacheB = new RedisReplyCache(target);
    open.push(cacheA, cacheB);
    const a = worker({ name: 'a', cache: cacheA });
    await a.start();
    const c = coordinator();
    const first = await provider(c).generate(ask('cache me'));
    await a.close();
    await worker({ name: 'b', cache: cacheB }).start();
    // A new run (a re-run elsewhere): its own job, answered from the shared cache.
    const rerun = new QueuedProvider(model, {
      coordinator: c,
      run: () => ({ ...RUN, id: 'another-run' }),
      limiter: new AdaptiveLimiter({ max: 4 }),
    });
    const second = await rerun.generate(ask('cache me'));
    expect(first).toMatchObject({ ok: true, cached: false });
    expect(second).toMatchObject({ ok: true, cached: true, text: first.ok ? first.text : '' });
    expect(server.requests.filter((r) => r.messages.at(-1)?.content === 'cache me')).toHaveLength(1);
  });

  it('enforces a queue-wide rate limit across workers (BullMQ limiter)', async () => {
    await worker({ name: 'a' }).start();
    await worker({ name: 'b' }).start();
    const c = coordinator({ rateLimit: { max: 4, durationMs: 1000 } });
    const started = Date.now();
    await Promise.all(Array.from({ length: 9 }, (_, i) => provider(c).generate(ask(`paced ${i}`))));
    // 4 in the first second, 4 in the second, the ninth in the third.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    const status = await readQueueStatus(target);
    expect(status.models[0]?.rateLimit).toEqual({ max: 4, durationMs: 1000 });
  });

  it('serves every model a coordinator enqueues for, found through the registry', async () => {
    const w = worker({ models: null });
    await w.start();
    const reply = await provider(coordinator()).generate(ask('found me'));
    expect(reply.ok).toBe(true);
    expect(w.serving).toEqual([model]);
  });

  it('reports waiting, active, completed and failed calls per run and per model, and the workers', async () => {
    await worker({ name: 'worker-a' }).start();
    const c = coordinator();
    await c.announce(RUN);
    respond = (r) => (r.messages.at(-1)?.content === 'bad' ? { status: 400 } : { text: 'ok' });
    await Promise.all(['x', 'y', 'bad'].map((t) => provider(c).generate(ask(t))));
    await c.close();
    const status = await readQueueStatus(target);
    expect(status.models).toEqual([
      expect.objectContaining({ model, completed: 3, failed: 0, waiting: 0, workers: ['worker-a'] }),
    ]);
    expect(status.runs).toEqual([
      expect.objectContaining({
        run_id: RUN.id,
        label: 'test run',
        state: 'finished',
        completed: 2,
        failed: 1,
        waiting: 0,
        per_minute: 3,
      }),
    ]);
  });

  it('counts a call completed after its coordinator is gone (killed or closed): the worker counts it', async () => {
    const w = worker({ name: 'worker-b' });
    await w.start();
    const c = coordinator();
    await c.announce(RUN);
    // Slow replies: every call is still running when the coordinator goes away.
    respond = (r) => ({ text: `late ${r.messages.at(-1)?.content}`, delayMs: 400 });
    const calls = ['p', 'q', 'r', 's', 't'].map((t) =>
      provider(c)
        .generate(ask(t))
        .catch(() => null),
    );
    await waitFor(async () => (await readQueueStatus(target)).models[0]?.active === 4);
    await c.close();
    await waitFor(async () => w.tally.done === 5);
    const run = (await readQueueStatus(target)).runs.find((r) => r.run_id === RUN.id);
    expect(run).toEqual(expect.objectContaining({ completed: 5, failed: 0 }));
    await Promise.race([Promise.all(calls), new Promise((r) => setTimeout(r, 100))]);
  });
});

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
