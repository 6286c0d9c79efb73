/**
 * LLM layer throughput: 2,000 structured calls to a fake OpenAI-compatible server (50 ms latency,
 * in its own process) at concurrency 16 should take within 1.1× the ideal N·L/C; a second run of
 * the same calls is served from the SQLite cache and should be at least 50× faster. Interleaved
 * passes (`interleaved.ts`: min and median, load printed) with two baselines in each: timers alone
 * and bare HTTP round trips to the same server (through citegeist's `node:http` client, and through
 * Node's built-in fetch, which the vendors' SDKs use). BENCH_PASSES (default 3) sets the passes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createNodeFetch, createProvider, ResponseCache } from '../src/llm/index.js';
import { formatRatio, interleaved, loadAverage, summarize } from './interleaved.js';

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

const PASSES = Number(process.env.BENCH_PASSES ?? 3);

export default async function (): Promise<void> {
  const { url, child } = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-llm-bench-'));
  let cache: ResponseCache | null = null;
  try {
    // warm-up: connections, JIT, schema conversion (different prompts, so nothing is pre-cached)
    const warm = createProvider(`openai-compatible:${url}/v1#warm`, { concurrency: CONCURRENCY });
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        warm.generateObject({ messages: [{ role: 'user', content: `w${i}` }], schema: Reply }),
      ),
    );
    const ideal = (N * LATENCY_MS) / CONCURRENCY;
    const fetchRaw = createNodeFetch();
    const cpu = { raw: [] as number[], fetch: [] as number[], cold: [] as number[] };
    const post = (client: typeof fetch, i: number) =>
      client(`${url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'raw', messages: [{ role: 'user', content: `raw ${i}` }] }),
        headers: { 'content-type': 'application/json' },
      }).then((res) => res.text());
    let cold = { ok: 0, cached: 0 };
    let hot = { ok: 0, cached: 0 };
    let pass = 0;
    const load = loadAverage();
    // Baselines on this machine, same run: timers alone, and bare HTTP round trips without the LLM
    // layer; then the layer uncached (a new cache file each pass) and the same calls again from the
    // cache, reopened as a new process would.
    const t = await interleaved(PASSES, {
      timers: async () => (await pool(N, () => new Promise((r) => setTimeout(r, LATENCY_MS)))).ms,
      raw: async () => {
        const r = await pool(N, (i) => post(fetchRaw as typeof fetch, i));
        cpu.raw.push(r.cpuPerCall);
        return r.ms;
      },
      // The same round trips through Node's built-in fetch (undici), what the vendors' SDKs use.
      fetch: async () => {
        const r = await pool(N, (i) => post(globalThis.fetch, i));
        cpu.fetch.push(r.cpuPerCall);
        return r.ms;
      },
      uncached: async () => {
        cache = new ResponseCache(join(dir, `cache-${pass++}.sqlite`));
        const r = await run(url, cache);
        cpu.cold.push(r.cpuPerCall);
        cold = r;
        return r.ms;
      },
      cached: async () => {
        const file = join(dir, `cache-${pass - 1}.sqlite`);
        cache?.close();
        cache = new ResponseCache(file);
        const r = await run(url, cache);
        cache.close();
        cache = null;
        hot = r;
        return r.ms;
      },
    });
    const x = (ms: number) => `${(ms / ideal).toFixed(3)}×`;
    const idealTiming = { min: ideal, median: ideal, all: [ideal] };
    console.log(
      `${N} structured calls, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}: ideal N·L/C = ${ideal.toFixed(0)} ms; ${PASSES} interleaved passes, load ${load} before, ${loadAverage()} after`,
    );
    console.log(
      `  baseline, timers only: ${x(t.timers!.min)} ideal (median ${x(t.timers!.median)}): how this machine schedules right now`,
    );
    console.log(
      `  baseline, bare HTTP:   ${x(t.raw!.min)} ideal (median ${x(t.raw!.median)}), client CPU ${summarize(cpu.raw).min.toFixed(3)} ms/call (median ${summarize(cpu.raw).median.toFixed(3)})`,
    );
    console.log(
      `  bare HTTP, built-in fetch: ${x(t.fetch!.min)} ideal (median ${x(t.fetch!.median)}), client CPU ${summarize(cpu.fetch).min.toFixed(3)} ms/call (median ${summarize(cpu.fetch).median.toFixed(3)})`,
    );
    console.log(
      `  uncached: ${t.uncached!.min.toFixed(0)} ms = ${formatRatio(t.uncached!, idealTiming, { max: 1.1 })} of ideal; ${(t.uncached!.min / t.raw!.min).toFixed(3)}× bare HTTP; client CPU ${summarize(cpu.cold).min.toFixed(3)} ms/call; ${cold.ok}/${N} ok`,
    );
    console.log(
      `  cached:   ${t.cached!.min.toFixed(0)} ms (median ${t.cached!.median.toFixed(0)}), ${hot.cached}/${N} from cache: ${formatRatio(t.uncached!, t.cached!, { min: 50 })} faster than uncached`,
    );
  } finally {
    (cache as ResponseCache | null)?.close();
    rmSync(dir, { recursive: true, force: true });
    child.kill('SIGTERM');
  }
}
