import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAiServer, faults } from '../testing/index.js';
import { memoryIo } from './io.js';
import { createLlmRuntime, resolveLlmSettings } from './llm-options.js';
import { runCli } from './program.js';
import { createLazyProgress, createProgress, duration } from './progress.js';

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('citegeist llm ping', () => {
  it('reports latency, tokens and structured-output support', async () => {
    server = await new FakeOpenAiServer({
      replies: [{ text: 'pong' }, { text: '{"reply": "pong", "ok": true}' }],
    }).start();
    const { io, stdout } = memoryIo({ cwd: mkdtempSync(join(tmpdir(), 'citegeist-ping-')) });
    const code = await runCli(['llm', 'ping', '--model', `openai-compatible:${server.url}/v1#qwen2.5`], io);
    expect(code).toBe(0);
    expect(stdout()).toMatch(
      /model\s+openai-compatible:http:\/\/127\.0\.0\.1:\d+\/v1#qwen2\.5 \(family alibaba\)/,
    );
    expect(stdout()).toMatch(/text\s+ok in \d+ ms: "pong"; \d+ in \/ \d+ out tokens; cost unknown/);
    expect(stdout()).toMatch(/structured\s+ok in \d+ ms via json_schema/);
  });

  it('exits 1 and says why when the model fails', async () => {
    server = await new FakeOpenAiServer({
      replies: [
        { status: 404, message: 'model not found' },
        { status: 404, message: 'model not found' },
      ],
    }).start();
    const { io, stdout } = memoryIo({ cwd: mkdtempSync(join(tmpdir(), 'citegeist-ping-')) });
    const code = await runCli(
      ['--json', 'llm', 'ping', '--model', `openai-compatible:${server.url}/v1#nope`],
      io,
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout())).toMatchObject({
      text: { ok: false, reason: expect.stringMatching(/HTTP 404.*model not found/) },
    });
  });

  it.each([
    [[], /--model is not set/],
    [['--model', 'openai:gpt-4.1'], /OPENAI_API_KEY is not set/],
    [['--model', 'gpt-4.1'], /has no provider prefix/],
    [
      ['--model', 'ollama:x', '--concurrency', '0'],
      /--concurrency must be a whole number at least 1, got "0"/,
    ],
  ])('refuses %j with problem and fix', async (args, message) => {
    const { io, stderr } = memoryIo({ cwd: mkdtempSync(join(tmpdir(), 'citegeist-ping-')) });
    expect(await runCli(['llm', 'ping', ...args], io)).toBe(1);
    expect(stderr()).toMatch(message);
    expect(stderr()).toMatch(/fix:/);
  });

  it('never prints the API key, even when the API echoes it', async () => {
    const key = 'sk-SENTINEL-cli-77aa55';
    server = await new FakeOpenAiServer({
      replies: [
        { status: 401, message: `Incorrect API key provided: ${key}` },
        { status: 401, message: `bad key ${key}` },
      ],
    }).start();
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-ping-'));
    const { io, stdout, stderr } = memoryIo({ cwd });
    const code = await runCli(['--json', 'llm', 'ping', '--model', `openai-compatible:${server.url}/v1#m`], {
      ...io,
      env: { OPENAI_COMPATIBLE_API_KEY: key },
    });
    expect(code).toBe(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(stdout()).toMatch(/\[redacted\]/);
    expect(stdout() + stderr()).not.toContain(key);
    for (const file of readdirSync(cwd, { recursive: true }) as string[]) {
      const path = join(cwd, file);
      try {
        expect(readFileSync(path).includes(key)).toBe(false);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
      }
    }
  });
});

describe('resolveLlmSettings', () => {
  it('lets flags win over the config and maps cache flags to a mode', () => {
    const s = resolveLlmSettings(
      { model: 'ollama:a', concurrency: '8', budget: '2.5', cache: false },
      { model: 'ollama:b', concurrency: 2, budget: 9 },
      '/w',
    );
    expect(s).toMatchObject({
      model: 'ollama:a',
      concurrency: 8,
      budgetUsd: 2.5,
      cacheMode: 'no-cache',
      cachePath: null,
    });
    const c = resolveLlmSettings({ cacheOnly: true }, { judge: 'openai:o3', cache: 'c.sqlite' }, '/w');
    expect(c).toMatchObject({
      judge: 'openai:o3',
      concurrency: 4,
      budgetUsd: null,
      cacheMode: 'cache-only',
      cachePath: '/w/c.sqlite',
    });
  });

  it.each([
    [{ budget: 'five' }, /--budget must be a number at least 0, got "five"/],
    [{ budget: '-1' }, /--budget/],
    [{ concurrency: '2.5' }, /--concurrency/],
    [{ cache: false, cacheOnly: true }, /both given/],
  ])('rejects %j', (flags, message) => {
    expect(() => resolveLlmSettings(flags, {}, '/w')).toThrow(message);
  });
});

describe('progress reporter', () => {
  it('shows the rate per second of a batch job once a second has passed (ingest, index)', () => {
    let t = 0;
    const { io, stderr } = memoryIo();
    const p = createProgress({
      io,
      label: 'indexing',
      total: 100,
      intervalMs: 1000,
      rate: 'papers',
      now: () => t,
    });
    t = 400;
    p.tick({ ok: true });
    t = 2000;
    for (let i = 0; i < 49; i++) p.tick({ ok: true });
    t = 4000;
    for (let i = 0; i < 50; i++) p.tick({ ok: true });
    p.stop();
    expect(stderr().split('\n').filter(Boolean)).toEqual([
      // A plain line is written by the first tick after each interval: 2 papers in 2 s, 51 in 4 s.
      'indexing: 2/100 done, 0 failed, ETA 1m38s, 1.0 papers/s',
      'indexing: 51/100 done, 0 failed, ETA 4s, 12.8 papers/s',
      'indexing: 100/100 done, 0 failed, took 4s, 25.0 papers/s',
    ]);
  });

  it('writes plain periodic lines with counts, ETA, model calls, tokens and cost when not a terminal', () => {
    let t = 0;
    const { io, stderr } = memoryIo();
    const p = createProgress({ io, label: 'grade', total: 4, intervalMs: 1000, now: () => t });
    t = 500;
    p.call({ usage: { inputTokens: 100, outputTokens: 20 }, costUsd: 0.001, cached: false });
    p.tick({ ok: true });
    t = 1500;
    p.tick({ ok: false });
    t = 2000;
    p.call({ usage: { inputTokens: 1000, outputTokens: 0 }, costUsd: 0.002, cached: false });
    p.tick({ ok: true });
    p.stop();
    expect(stderr().split('\n').filter(Boolean)).toEqual([
      'grade: 2/4 done, 1 failed, ETA 2s, 1 model call, 120 tokens, $0.0010',
      'grade: 3/4 done, 1 failed, took 2s, 2 model calls, 1,120 tokens, $0.0030',
    ]);
    expect([p.done, p.failed]).toEqual([3, 1]);
  });

  it('says which calls were cached and which reported no usage (their tokens are unknown, not 0)', () => {
    const { io, stderr } = memoryIo();
    const p = createProgress({ io, label: 'judged', total: 1, now: () => 0 });
    p.call({ usage: { inputTokens: 7, outputTokens: 3 }, costUsd: null, cached: false });
    p.call({ usage: { inputTokens: 7, outputTokens: 3 }, costUsd: 0, cached: true });
    p.call({ usage: null, costUsd: null, cached: false });
    p.call({ ok: false, usage: null, costUsd: null, cached: false }); // no reply: no usage to miss
    p.tick({ ok: true });
    p.stop();
    p.call({ usage: { inputTokens: 1, outputTokens: 1 }, costUsd: null, cached: false }); // after the end: ignored
    expect(stderr()).toBe(
      'judged: 1/1 done, 0 failed, took 0s, 4 model calls (1 cached, 1 failed), 10 tokens (1 call reported no usage), $0.0000\n',
    );
  });

  it('leaves tokens out for work that calls no model', () => {
    const { io, stderr } = memoryIo();
    const p = createProgress({ io, label: 'ingest', total: 2, now: () => 0 });
    p.tick({ ok: true });
    p.tick({ ok: false });
    p.stop();
    expect(stderr()).toBe('ingest: 2/2 done, 1 failed, took 0s\n');
  });

  it('a lazy reporter keeps the calls made before its first item', () => {
    const { io, stderr } = memoryIo();
    const p = createLazyProgress({ io, label: 'answered', now: () => 0 });
    p.call({ usage: { inputTokens: 5, outputTokens: 5 }, costUsd: null, cached: false });
    p.tick({ ok: true }, 1);
    p.stop();
    expect(stderr()).toBe('answered: 1/1 done, 0 failed, took 0s, 1 model call, 10 tokens\n');
  });

  it.each([
    [Number.NaN, '?'],
    [0, '0s'],
    [59_400, '59s'],
    [75_000, '1m15s'],
    [3_900_000, '1h05m'],
  ])('duration(%s) = %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });

  it('counts every call through the runtime', async () => {
    server = await new FakeOpenAiServer({
      replies: [{ text: 'a', usage: { input: 3, output: 2 } }, faults.serverError(400)],
    }).start();
    const runtime = createLlmRuntime(resolveLlmSettings({ cache: false }, {}, '/w'), {});
    const seen: boolean[] = [];
    runtime.onCall((e) => seen.push(e.ok));
    const p = runtime.provider(`openai-compatible:${server.url}/v1#m`);
    await p.generate({ messages: [{ role: 'user', content: 'x' }] });
    await p.generate({ messages: [{ role: 'user', content: 'y' }] });
    expect(seen).toEqual([true, false]);
    expect(runtime.totals).toMatchObject({ calls: 2, failed: 1, inputTokens: 3, outputTokens: 2 });
  });
});
