/**
 * Queue throughput (issue 18): N calls through `--queue` with W = 1, 2 and 4 worker processes
 * (`citegeist worker --concurrency C`) against a fake model server with L = 50 ms latency, in its
 * own process. Goal: within 1.2× the ideal N·L/(C·W), and the queue adding under 2 ms per job. The
 * same calls made directly from one process with C·W calls at once (no queue) are the baseline
 * measured in the same pass. Passes are interleaved; minima and medians are reported, with the load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AdaptiveLimiter, createProvider } from '../src/llm/index.js';
import { parseRedisUrl, QueueCoordinator, QueuedProvider } from '../src/queue/index.js';
import { RedisTestServer } from '../src/testing/index.js';
import { builtCli, type CliProcess, startWorker } from '../src/testing/process-faults.js';
import { interleaved, loadAverage, type Timing } from './interleaved.js';

const LATENCY_MS = 50;
const C = 4;
/** Calls per worker per pass: 5 s of ideal work whatever W is. */
const PER_WORKER = 400;
const WORKERS = [1, 2, 4];
const PASSES = 3;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const script = join(ROOT, 'bench', 'fake-llm-server.ts');
  const child = spawn(process.execPath, [...process.execArgv, script, String(LATENCY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((r) => lines.once('line', r));
  return { url, child };
}

/** CPU milliseconds a process has used so far (user + system, from /proc). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU ms of this process (the coordinator, or the direct client). */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const ask = (tag: string, i: number) => ({
  messages: [{ role: 'user' as const, content: `${tag} question ${i}` }],
  maxTokens: 20,
  temperature: 0,
});

export default async function (): Promise<void> {
  const main = builtCli(ROOT);
  const redis = await new RedisTestServer().start();
  const { url, child } = await startServer();
  const model = `openai-compatible:${url}/v1#bench-model`;
  const target = parseRedisUrl(redis.url, '--queue');
  const coordinator = new QueueCoordinator(target);
  let pass = 0;
  const loadBefore = loadAverage();
  /** CPU ms per call, per configuration: every process of the queue, or client + server directly. */
  const cpu: Record<string, number[]> = {};
  const note = (key: string, ms: number, n: number) => {
    cpu[key] ??= [];
    cpu[key].push(ms / n);
  };

  /** W workers up (outside the timing), N calls through the queue (timed), workers down. */
  const queued = (w: number) => async () => {
    const workers: CliProcess[] = [];
    for (let i = 0; i < w; i++)
      workers.push(
        await startWorker(
          main,
          ['--queue', redis.url, '--concurrency', String(C), '--no-cache', '--models', model],
          ROOT,
          {},
        ),
      );
    const run = { id: `bench${pass++}w${w}`, label: `bench W=${w}`, kind: 'bench' };
    const llm = new QueuedProvider(model, {
      coordinator,
      run: () => run,
      limiter: new AdaptiveLimiter({ max: 4 * C * w }),
      cacheMode: 'no-cache',
    });
    const n = PER_WORKER * w;
    const pids = [...workers.map((p) => p.child.pid), redis.pid, child.pid];
    const cpuNow = () => pids.reduce<number>((a, pid) => a + cpuMs(pid), ownCpuMs());
    const c0 = cpuNow();
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: n }, (_, i) => llm.generate(ask(run.id, i))));
    const ms = performance.now() - t0;
    note(`queue ${w}`, cpuNow() - c0, n);
    if (results.some((r) => !r.ok)) throw new Error('a queued call failed');
    for (const p of workers) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
    return ms;
  };
  /** The same number of calls straight to the server, C·W at once, no queue. */
  const direct = (w: number) => async () => {
    const llm = createProvider(model, { concurrency: C * w, cacheMode: 'no-cache' });
    const n = PER_WORKER * w;
    const c0 = ownCpuMs() + cpuMs(child.pid);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => llm.generate(ask(`direct${pass}w${w}`, i))));
    const ms = performance.now() - t0;
    note(`direct ${w}`, ownCpuMs() + cpuMs(child.pid) - c0, n);
    return ms;
  };

  try {
    await coordinator.start();
    await queued(1)(); // warm-up: connections, scripts, JIT
    const steps: Record<string, () => Promise<number>> = {};
    for (const w of WORKERS) {
      steps[`queue W=${w}`] = queued(w);
      steps[`direct ${C * w} at once`] = direct(w);
    }
    const t = await interleaved(PASSES, steps);
    console.log(
      `${PER_WORKER}·W calls, latency L = ${LATENCY_MS} ms, C = ${C} calls at once per worker; ${PASSES} interleaved passes; load average ${loadBefore} before, ${loadAverage()} after (2 cores: a 1-minute load above 2 means other work competed for them)`,
    );
    const least = (key: string) => Math.min(...(cpu[key] ?? [Number.NaN]));
    for (const w of WORKERS) {
      const n = PER_WORKER * w;
      const ideal = (n * LATENCY_MS) / (C * w);
      const q = t[`queue W=${w}`] as Timing;
      const d = t[`direct ${C * w} at once`] as Timing;
      // Per job: the time a slot spends on it beyond the model's latency, and beyond the direct run's.
      const perJob = (ms: number) => (ms * C * w) / n - LATENCY_MS;
      const added = (a: number, b: number) => ((a - b) * C * w) / n;
      console.log(
        `  W=${w}: ideal ${ideal.toFixed(0)} ms; queue ${q.min.toFixed(0)} ms = ${(q.min / ideal).toFixed(3)}× ideal (median ${(q.median / ideal).toFixed(3)}×; goal ≤ 1.2×: ${q.min / ideal <= 1.2 ? 'met' : 'NOT met'}); ` +
          `direct ${(d.min / ideal).toFixed(3)}× ideal; queue adds ${added(q.min, d.min).toFixed(2)} ms per job over direct (median ${added(q.median, d.median).toFixed(2)}; goal < 2 ms: ${added(q.min, d.min) < 2 ? 'met' : 'NOT met'}), ${perJob(q.min).toFixed(2)} ms over L; ` +
          `CPU per job ${least(`queue ${w}`).toFixed(2)} ms across coordinator, workers, Redis and server vs ${least(`direct ${w}`).toFixed(2)} ms direct: the queue costs ${(least(`queue ${w}`) - least(`direct ${w}`)).toFixed(2)} ms of CPU per job`,
      );
    }
  } finally {
    await coordinator.close();
    child.kill('SIGTERM');
    await redis.stop();
  }
}
