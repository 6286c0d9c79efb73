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
import { createProvider, ResponseCache } from '../src/llm/index.js';

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

async function run(url: string, cache: ResponseCache): Promise<{ ms: number; ok: number; cached: number }> {
  const provider = createProvider(`openai-compatible:${url}/v1#bench-model`, {
    concurrency: CONCURRENCY,
    cache,
  });
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
  return { ms, ok: results.filter((r) => r.ok).length, cached: results.filter((r) => r.cached).length };
}

export default async function (): Promise<void> {
  const { url, child } = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-llm-bench-'));
  const cache = new ResponseCache(join(dir, 'cache.sqlite'));
  try {
    // warm-up: connections, JIT, schema conversion (different prompts, so nothing is pre-cached)
    const warm = createProvider(`openai-compatible:${url}/v1#warm`, { concurrency: CONCURRENCY });
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        warm.generateObject({ messages: [{ role: 'user', content: `w${i}` }], schema: Reply }),
      ),
    );
    const ideal = (N * LATENCY_MS) / CONCURRENCY;
    const cold = await run(url, cache);
    const hot = await run(url, cache);
    console.log(
      `${N} structured calls, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}: ideal N·L/C = ${ideal.toFixed(0)} ms`,
    );
    console.log(
      `  uncached: ${cold.ms.toFixed(0)} ms = ${(cold.ms / ideal).toFixed(3)}× ideal (target ≤ 1.1×), ${cold.ok}/${N} ok`,
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
