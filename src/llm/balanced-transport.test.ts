import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../testing/index.js';
import { BalancedTransport } from './balanced-transport.js';
import { createProvider } from './create-provider.js';

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function replica(latencyMs = 20): Promise<FakeOpenAiServer> {
  const s = await new FakeOpenAiServer({ latencyMs, replies: () => ({ text: 'ok' }) }).start();
  servers.push(s);
  return s;
}

/** A port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const ask = (n: number) => ({ messages: [{ role: 'user' as const, content: `q${n}` }], maxTokens: 5 });

describe('replicas of one model (openai-compatible:<url>,<url>#model)', () => {
  it('spreads calls evenly over the replicas, in one provider with one id', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const spec = `openai-compatible:${a.url}/v1,${b.url}/v1,${c.url}/v1#m`;
    const llm = createProvider(spec, { concurrency: 6 });
    expect(llm.transport).toBeInstanceOf(BalancedTransport);
    expect(llm.id).toBe(spec);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => llm.generate(ask(i))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect([a.requests.length, b.requests.length, c.requests.length]).toEqual([10, 10, 10]);
  });

  it('sends an attempt that cannot reach one replica to another, and sets the dead one aside', async () => {
    const live = await replica(5);
    const spec = `openai-compatible:http://127.0.0.1:${await deadPort()}/v1,${live.url}/v1#m`;
    const llm = createProvider(spec, { concurrency: 2, maxAttempts: 1 });
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await llm.generate(ask(i)));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, true]);
    expect(live.requests).toHaveLength(6);
    const load = (llm.transport as BalancedTransport).load;
    expect(load.map((l) => l.down)).toEqual([true, false]);
  });

  it('returns an HTTP failure as it is (the retry loop decides), without trying the other replica', async () => {
    const failing = await new FakeOpenAiServer({ replies: () => ({ status: 400, message: 'bad' }) }).start();
    servers.push(failing);
    const other = await replica(5);
    const t = new BalancedTransport(
      [failing, other].map((s) => createProvider(`openai-compatible:${s.url}/v1#m`).transport),
    );
    const reply = await t.send({ messages: ask(0).messages }, new AbortController().signal);
    expect(reply.ok).toBe(false);
    expect(other.requests).toHaveLength(0);
  });

  it('reads several vLLM replicas from VLLM_BASE_URL', async () => {
    const [a, b] = [await replica(), await replica()];
    const llm = createProvider('vllm:m', { env: { VLLM_BASE_URL: `${a.url}/v1, ${b.url}/v1` } });
    await Promise.all([llm.generate(ask(1)), llm.generate(ask(2))]);
    expect([a.requests.length, b.requests.length]).toEqual([1, 1]);
  });
});
