/**
 * LLM layer throughput: 2,000 structured calls to a fake OpenAI-compatible server (50 ms latency,
 * in its own process) at concurrency 16 should take within 1.1× the ideal N·L/C; a second run of
 * the same calls is served from the SQLite cache and should be at least 50× faster.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createNodeFetch, createProvider, ResponseCache } from '../src/llm/index.js';

const N = 2000;
const LATENCY_MS = 50;
const CONCURRENCY = 16;
const Reply = z.object({ id: z.string(), ok: z.boolean() });

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'fake-llm-server.ts');
  const child = spawn(process.execPath, [...process.execArgv, script, String(LATENCY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve) => lines.once('line', resolve));
  return { url, child };
}

/** Runs `n` tasks with `CONCURRENCY` workers; returns wall ms and this process's CPU ms per task. */
async function pool(
  n: number,
  task: (i: number) => Promise<unknown>,
): Promise<{ ms: number; cpuPerCall: number }> {
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await task(next++);
    }),
  );
  const cpu = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuPerCall: (cpu.user + cpu.system) / 1000 / n };
}

async function run(
  url: string,
  cache: ResponseCache,
): Promise<{ ms: number; ok: number; cached: number; cpuPerCall: number }> {
  const provider = createProvider(`openai-compatible:${url}/v1#bench-model`, {
    concurrency: CONCURRENCY,
    cache,
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      provider.generateObject({
        messages: [{ role: 'user', content: `question ${i}` }],
        schema: Reply,
        temperature: 0,
      }),
    ),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return {
    ms,
    ok: results.filter((r) => r.ok).length,
    cached: results.filter((r) => r.cached).length,
    cpuPerCall: (cpu.user + cpu.system) / 1000 / N,
  };
}

export default async function (): Promise<void> {
  const { url, child } = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-llm-bench-'));
  const cacheFile = join(dir, 'cache.sqlite');
  let cache = new ResponseCache(cacheFile);
  try {
    // warm-up: connections, JIT, schema conversion (different prompts, so nothing is pre-cached)
    const warm = createProvider(`openai-compatible:${url}/v1#warm`, { concurrency: CONCURRENCY });
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        warm.generateObject({ messages: [{ role: 'user', content: `w${i}` }], schema: Reply }),
      ),
    );
    const ideal = (N * LATENCY_MS) / CONCURRENCY;
    // baselines on this machine, same run: timers alone, and bare HTTP round trips without the LLM layer
    const sleep = await pool(N, () => new Promise((r) => setTimeout(r, LATENCY_MS)));
    const fetchRaw = createNodeFetch();
    const raw = await pool(N, (i) =>
      fetchRaw(`${url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'raw', messages: [{ role: 'user', content: `raw ${i}` }] }),
        headers: { 'content-type': 'application/json' },
      }).then((r) => r.text()),
    );
    const cold = await run(url, cache);
    cache.close(); // the re-run reads the SQLite file afresh, as a new process would
    cache = new ResponseCache(cacheFile);
    const hot = await run(url, cache);
    const x = (ms: number) => `${(ms / ideal).toFixed(3)}× ideal`;
    console.log(
      `${N} structured calls, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}: ideal N·L/C = ${ideal.toFixed(0)} ms`,
    );
    console.log(`  baseline, timers only:   ${x(sleep.ms)} (how this machine schedules right now)`);
    console.log(`  baseline, bare HTTP:     ${x(raw.ms)}, client CPU ${raw.cpuPerCall.toFixed(3)} ms/call`);
    console.log(
      `  uncached: ${cold.ms.toFixed(0)} ms = ${x(cold.ms)} (target ≤ 1.1×) = ${(cold.ms / raw.ms).toFixed(3)}× bare HTTP, client CPU ${cold.cpuPerCall.toFixed(3)} ms/call, ${cold.ok}/${N} ok`,
    );
    console.log(
      `  cached:   ${hot.ms.toFixed(0)} ms, ${hot.cached}/${N} from cache: ${(cold.ms / hot.ms).toFixed(1)}× faster (target ≥ 50×)`,
    );
  } finally {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
    child.kill('SIGTERM');
  }
}
