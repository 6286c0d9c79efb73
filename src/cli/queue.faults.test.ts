import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueNameFor } from '../queue/index.js';
import { createRandom } from '../stats/index.js';
import { FaultReport, markdownTable } from '../testing/fault-report.js';
import { campaignReply, datasetIds, faultWorkspace } from '../testing/fault-workspace.js';
import {
  type FakeAction,
  FakeOpenAiServer,
  type FakeRequest,
  findRedisServer,
  REDIS_MISSING,
  RedisTestServer,
} from '../testing/index.js';
import {
  builtCli,
  type CliProcess,
  lineCount,
  readJsonlState,
  rowAccounting,
  startCli,
  startWorker,
} from '../testing/process-faults.js';

/**
 * The scale-out part of the fault campaign (issue 18): a 2,000-row `answer --queue` with three
 * worker processes, one of them killed with SIGKILL at 10 random moments (and replaced, as an
 * orchestrator would); then a poison job, which kills every worker that takes it. Figures go to
 * docs/reliability.md ("Scale-out") with `npm run faults:report`.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SEED = Number(process.env.CITEGEIST_FAULT_SEED ?? 20261201);
const ROWS = 2000;
const PAPERS = 20;
const KILLS = 10;
const LATENCY_MS = 25;
/** Short locks, so a killed worker's calls go to another within seconds (the default is 30 s). */
const WORKER_FLAGS = ['--concurrency', '4', '--no-cache', '--lock-ms', '2000', '--stalled-check-ms', '1000'];
const installed = findRedisServer() !== null;
if (!installed) console.warn(`skipping the scale-out fault campaign: ${REDIS_MISSING}`);

const report = new FaultReport();
let main: string;
let redis: RedisTestServer;
let server: FakeOpenAiServer;
let model: string;
/** Replies of the model server; the poison test swaps in its own. */
let respond: (r: FakeRequest) => FakeAction = campaignReply;

beforeAll(async () => {
  if (!installed) return;
  main = builtCli(ROOT);
  redis = await new RedisTestServer().start();
  server = await new FakeOpenAiServer({ replies: (r) => respond(r), latencyMs: LATENCY_MS }).start();
  model = `openai-compatible:${server.url}/v1#fake-model`;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await redis?.stop();
  report.publish((t) => process.stdout.write(t));
});

const answerArgs = (out: string, queue: boolean) => [
  'answer',
  '--dataset',
  'dataset.jsonl',
  '--papers',
  'papers',
  '--model',
  model,
  '--no-cache',
  '--out',
  out,
  ...(queue ? ['--queue', redis.url] : ['--concurrency', '12']),
];

/** The rows of a run file by id, without what differs between two runs of one command (latency). */
function rowsById(path: string): Map<string, unknown> {
  const [, ...rows] = readJsonlState(path).values;
  return new Map(rows.map(({ latency_ms: _l, ...rest }) => [String(rest.row_id), rest] as [string, unknown]));
}

/** The pid suffix (`-pid<n>`) of the worker holding the active job whose prompt contains `text`. */
async function poisonHolder(text: string): Promise<string | undefined> {
  const client = new Redis(redis.port, '127.0.0.1');
  const queue = `citegeist:${queueNameFor(model)}`;
  try {
    for (let tries = 0; tries < 500; tries++) {
      for (const id of await client.lrange(`${queue}:active`, 0, -1)) {
        const [data, holder] = await client.hmget(`${queue}:${id}`, 'data', 'pb');
        if (data?.includes(text) && holder) return /-pid\d+$/.exec(holder)?.[0];
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return undefined;
  } finally {
    client.disconnect();
  }
}

async function stop(p: CliProcess, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

describe.skipIf(!installed)('scale-out: workers killed during a queue run', () => {
  it("kills one of three workers at 10 random moments of a 2,000-row run: nothing lost or duplicated, the local run's rows in dataset order", async () => {
    const random = createRandom(SEED);
    const dir = faultWorkspace(ROWS, PAPERS);
    const env = { OPENAI_COMPATIBLE_API_KEY: 'sk-fault-campaign' };
    const started = Date.now();
    const workers: CliProcess[] = [];
    for (let i = 0; i < 3; i++)
      workers.push(await startWorker(main, ['--queue', redis.url, ...WORKER_FLAGS], dir, env));
    const callsBefore = server.requests.length;
    const coordinator = startCli(main, answerArgs('queued.jsonl', true), dir, {});
    // Kill moments: 10 random amounts of progress (rows written), in order.
    const moments = Array.from({ length: KILLS }, () => Math.floor(random() * ROWS * 0.9)).sort(
      (a, b) => a - b,
    );
    let landed = 0;
    for (const at of moments) {
      while (lineCount(join(dir, 'queued.jsonl')) < at + 1 && coordinator.child.exitCode === null)
        await new Promise((r) => setTimeout(r, 10));
      if (coordinator.child.exitCode !== null) break;
      const victim = Math.floor(random() * workers.length);
      await stop(workers[victim]!, 'SIGKILL');
      landed++;
      // An orchestrator restarts it; the killed one's calls go to whoever takes them after its lock expires.
      workers[victim] = await startWorker(main, ['--queue', redis.url, ...WORKER_FLAGS], dir, env);
    }
    const exit = await coordinator.exited;
    const seconds = (Date.now() - started) / 1000;
    for (const w of workers) await stop(w, 'SIGTERM');
    expect(coordinator.stderr()).not.toMatch(/error/i);
    expect(exit.code).toBe(0);
    const calls = server.requests.length - callsBefore;

    const local = startCli(main, answerArgs('local.jsonl', false), dir, env);
    expect((await local.exited).code).toBe(0);
    const state = readJsonlState(join(dir, 'queued.jsonl'));
    const [manifest, ...rows] = state.values;
    const ids = datasetIds(ROWS, PAPERS);
    const a = rowAccounting(rows, 'row_id', ids);
    const queued = rowsById(join(dir, 'queued.jsonl'));
    const reference = rowsById(join(dir, 'local.jsonl'));
    const differing = ids.filter(
      (id) => JSON.stringify(queued.get(id)) !== JSON.stringify(reference.get(id)),
    );
    const inOrder = rows.every((r, i) => r.row_id === ids[i]);
    const failed = rows.filter((r) => r.error !== null).length;
    report.add(
      'Scale-out',
      `\`answer --queue\` over ${ROWS} rows with three \`citegeist worker\` processes (4 calls at once each, locks of 2 s), the fake model server answering in ${LATENCY_MS} ms; one worker, drawn at random, is killed with SIGKILL at ${KILLS} random moments of the run (seed ${SEED}) and replaced at once. A killed worker's calls are taken by another once its lock expires. The output is compared with a local run of the same command (every field but latency, row by row). Seconds are wall time on 2 cores at a load average of ${loadavg()[0]?.toFixed(1)}.\n\n${markdownTable(
        [
          'rows',
          'kills (landed)',
          'model calls made',
          'calls made twice',
          'rows lost',
          'rows duplicated',
          'failed rows',
          'rows differing from the local run',
          'in dataset order',
          'seconds',
        ],
        [
          [
            ROWS,
            `${KILLS} (${landed})`,
            calls,
            calls - ROWS,
            a.lost,
            a.duplicated,
            failed,
            differing.length,
            inOrder ? 'yes' : 'no',
            seconds.toFixed(0),
          ],
        ],
      )}`,
    );
    expect(manifest).toMatchObject({ citegeist_manifest: 1, kind: 'run' });
    expect({
      ...a,
      failed,
      differing: differing.length,
      inOrder,
      corrupt: state.corrupt,
      torn: state.torn,
    }).toEqual({
      duplicated: 0,
      lost: 0,
      extra: 0,
      failed: 0,
      differing: 0,
      inOrder: true,
      corrupt: 0,
      torn: false,
    });
    expect(landed).toBe(KILLS);
    expect(calls).toBeGreaterThanOrEqual(ROWS);
  });

  it('a poison job (it kills every worker that takes it) is given up and written as failed; the run goes on', async () => {
    const dir = faultWorkspace(40, 4);
    const poison = 'question 17?';
    let poisoned = 0;
    respond = (r) => {
      if (!r.messages.at(-1)?.content.includes(poison)) return campaignReply(r);
      poisoned++;
      return { hang: true };
    };
    const env = { OPENAI_COMPATIBLE_API_KEY: 'sk-fault-campaign' };
    // One call at a time per worker, so that only the poison's own worker holds it when it dies.
    const flags = [
      '--queue',
      redis.url,
      '--concurrency',
      '1',
      '--no-cache',
      '--lock-ms',
      '1000',
      '--stalled-check-ms',
      '500',
      '--max-stalls',
      '1',
    ];
    const workers: CliProcess[] = [];
    for (let i = 0; i < 3; i++) workers.push(await startWorker(main, flags, dir, env));
    const coordinator = startCli(main, answerArgs('poison.jsonl', true), dir, {});
    let deaths = 0;
    let seen = 0;
    const deadline = Date.now() + 120_000;
    while (coordinator.child.exitCode === null) {
      if (Date.now() > deadline)
        throw new Error(`the poison run did not end in 120 s: ${coordinator.stderr()}`);
      if (poisoned > seen) {
        seen = poisoned;
        // The poison's effect: the worker that took it (its name is in the job, \`pb\`) dies.
        const holder = await poisonHolder(poison);
        const i = workers.findIndex((w) => holder === `-pid${w.child.pid}`);
        if (i < 0) throw new Error(`no live worker holds the poison job (holder ${holder})`);
        await stop(workers[i]!, 'SIGKILL');
        deaths++;
        workers[i] = await startWorker(main, flags, dir, env);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const exit = await coordinator.exited;
    for (const w of workers) await stop(w, 'SIGTERM');
    respond = campaignReply;
    const [, ...rows] = readJsonlState(join(dir, 'poison.jsonl')).values;
    const bad = rows.filter((r) => r.error !== null);
    report.add(
      'Scale-out',
      `\nA poison job: the call for one row of 40 kills the worker that takes it (the test kills it when the model server sees that call); three workers run with \`--concurrency 1 --max-stalls 1\`. It was taken ${deaths} times, then given up: the row is written as failed with the reason, the other 39 are answered, and the command exits 1 (failed rows, as locally), ready to retry the row on the next run.\n\n${markdownTable(
        ['rows', 'workers killed by the poison', 'rows answered', 'rows failed', 'reason written'],
        [
          [
            rows.length,
            deaths,
            rows.length - bad.length,
            bad.length,
            `"${String(bad[0]?.error ?? '').slice(0, 90)}…"`,
          ],
        ],
      )}`,
    );
    expect(exit.code).toBe(1);
    expect(rows).toHaveLength(40);
    expect(bad.map((r) => r.row_id)).toEqual(['p01_q17']);
    expect(String(bad[0]?.error)).toMatch(/given up \(a poison job\?\).*stalled more than allowable limit/);
    expect(deaths).toBe(2);
    expect(readFileSync(join(dir, 'poison.jsonl'), 'utf8')).not.toMatch(/sk-fault-campaign/);
  });
});
