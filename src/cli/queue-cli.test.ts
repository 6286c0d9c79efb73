import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignReply, faultWorkspace } from '../testing/fault-workspace.js';
import { FakeOpenAiServer, findRedisServer, REDIS_MISSING, RedisTestServer } from '../testing/index.js';
import { nuggetBanks, nuggetCampaignReply, nuggetWorkspace } from '../testing/nugget-fault-workspace.js';
import { builtCli, type CliProcess, startWorker } from '../testing/process-faults.js';
import { memoryIo } from './io.js';
import { runCli } from './program.js';

/**
 * `--queue` as a user runs it: three `citegeist worker` processes and a coordinating command
 * (answer, grade --judge, generate questions, nuggets generate), against the fake model server and a real
 * redis-server. A queue run must write what a local run writes, in the same order.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENTINEL = 'sk-citegeist-QUEUE-SENTINEL-keys-stay-on-workers';
const installed = findRedisServer() !== null;
if (!installed) console.warn(`skipping the queue CLI tests: ${REDIS_MISSING}`);

let redis: RedisTestServer;
let server: FakeOpenAiServer;
let model: string;
let dir: string;
const workers: CliProcess[] = [];

beforeAll(async () => {
  if (!installed) return;
  const main = builtCli(ROOT);
  redis = await new RedisTestServer().start();
  server = await new FakeOpenAiServer({
    replies: (request) => nuggetCampaignReply(request) ?? campaignReply(request),
    latencyMs: 2,
  }).start();
  model = `openai-compatible:${server.url}/v1#fake-model`;
  dir = faultWorkspace(60, 6);
  const env = { OPENAI_COMPATIBLE_API_KEY: SENTINEL };
  for (let i = 0; i < 3; i++)
    workers.push(
      await startWorker(main, ['--queue', redis.url, '--concurrency', '3', '--no-cache'], dir, env),
    );
}, 120_000);

afterAll(async () => {
  for (const w of workers) {
    w.child.kill('SIGTERM');
    await w.exited;
  }
  await server?.close();
  await redis?.stop();
});

/** `answer` over the workspace's dataset and papers with the fake server's model. */
const answerArgs = () => ['answer', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--model', model];

/** Runs the CLI in this process, as the coordinator (its env holds the key too: it must not travel). */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, stdout, stderr } = memoryIo({ cwd: dir, env: { OPENAI_COMPATIBLE_API_KEY: SENTINEL } });
  const code = await runCli(argv, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

/** A file's lines, with what legitimately differs between two runs (times, latency) removed. */
function comparable(file: string): unknown[] {
  return readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const { created_at: _c, latency_ms: _l, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}

/**
 * A command's last progress line (e.g. "answered: 60/60 done, 0 failed, took 1s, 60 model calls,
 * 7,080 tokens") without its duration: calls and tokens are counted from the same call events
 * (`runtime.onCall`) whether the calls ran here or on workers.
 */
function lastProgress(stderr: string, label: string): string | undefined {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith(`${label}: `))
    .at(-1)
    ?.replace(/, took [^,]+/, '');
}

// One campaign in steps: `queue status` and the key check read what the runs before them left in
// Redis and on the model server, so these tests keep their order under --sequence.shuffle.
describe.skipIf(!installed)('--queue with three worker processes', { shuffle: false }, () => {
  it('answer: the queue run writes what a local run writes, row for row, in dataset order', async () => {
    const common = [...answerArgs(), '--no-cache'];
    const local = await cli(...common, '--out', 'local.jsonl', '--concurrency', '1');
    const queued = await cli(...common, '--out', 'queued.jsonl', '--queue', redis.url);
    expect(local.code).toBe(0);
    expect(queued).toMatchObject({ code: 0 });
    expect(queued.stdout).toMatch(/answered 60 rows \(0 failed/);
    expect(comparable('queued.jsonl')).toEqual(comparable('local.jsonl'));
    expect(comparable('queued.jsonl')).toHaveLength(61);
    expect(lastProgress(queued.stderr, 'answered')).toMatch(
      /^answered: 60\/60 done, 0 failed, 60 model calls, [\d,]+ tokens$/,
    );
    expect(lastProgress(queued.stderr, 'answered')).toBe(lastProgress(local.stderr, 'answered'));
    // Every worker took a share.
    for (const w of workers) expect(w.stderr()).not.toMatch(/error/i);
  });

  it('nuggets generate: the same banks and judgments as a local run', async () => {
    const ws = nuggetWorkspace(3, 6);
    const args = ['nuggets', 'generate', '--requests', join(ws, 'requests.jsonl')];
    args.push('--docs', join(ws, 'docs.jsonl'), '--model', model, '--no-cache');
    const local = await cli(...args, '--out', join(ws, 'local'), '--concurrency', '1');
    const queued = await cli(...args, '--out', join(ws, 'queued'), '--queue', redis.url);
    expect([local.code, queued.code], queued.stderr).toEqual([0, 0]);
    expect(Object.keys(nuggetBanks(join(ws, 'queued')))).toHaveLength(3);
    expect(nuggetBanks(join(ws, 'queued'))).toEqual(nuggetBanks(join(ws, 'local')));
    for (const f of ['paraphrase_judgments.json', 'answer_judgments.json'])
      expect(readFileSync(join(ws, 'queued', 'judgments', f), 'utf8')).toBe(
        readFileSync(join(ws, 'local', 'judgments', f), 'utf8'),
      );
    // The calls were the run's own on the queue (named by its manifest), not an unnamed session's.
    const manifest = JSON.parse(readFileSync(join(ws, 'queued', 'generate.meta.json'), 'utf8'));
    const status = JSON.parse((await cli('--json', 'queue', 'status', '--queue', redis.url)).stdout);
    expect(status.runs.find((r: { run_id: string }) => r.run_id === manifest.run_id)).toMatchObject({
      kind: 'nuggets',
      state: 'finished',
      failed: 0,
    });
  });

  it('grade --judge and generate questions: the same rows as a local run', async () => {
    const grade = [
      'grade',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--run',
      'local.jsonl',
      '--judge',
      model,
      '--no-cache',
    ];
    const gradedLocal = await cli(...grade, '--out', 'grades-local.jsonl', '--concurrency', '1');
    const gradedQueued = await cli(...grade, '--out', 'grades-queued.jsonl', '--queue', redis.url);
    expect([gradedLocal.code, gradedQueued.code]).toEqual([0, 0]);
    expect(comparable('grades-queued.jsonl')).toEqual(comparable('grades-local.jsonl'));
    expect(lastProgress(gradedQueued.stderr, 'judged')).toMatch(
      /^judged: 60\/60 done, 0 failed, \d+ model calls, [\d,]+ tokens$/,
    );
    expect(lastProgress(gradedQueued.stderr, 'judged')).toBe(lastProgress(gradedLocal.stderr, 'judged'));
    const generate = ['generate', 'questions', '--papers', 'papers', '--model', model, '--no-cache'];
    const genLocal = await cli(...generate, '--out', 'gen-local.jsonl', '--concurrency', '1');
    const genQueued = await cli(...generate, '--out', 'gen-queued.jsonl', '--queue', redis.url);
    expect([genLocal.code, genQueued.code]).toEqual([0, 0]);
    expect(lastProgress(genQueued.stderr, 'papers')).toMatch(/ \d+ model calls, [\d,]+ tokens$/);
    expect(lastProgress(genQueued.stderr, 'papers')).toBe(lastProgress(genLocal.stderr, 'papers'));
    expect(comparable('gen-queued.jsonl')).toEqual(comparable('gen-local.jsonl'));
    expect(comparable('gen-queued.jsonl.papers.jsonl')).toEqual(comparable('gen-local.jsonl.papers.jsonl'));
  });

  it('keys stay on the workers: the sentinel key reaches the model server and is nowhere in Redis', async () => {
    expect(server.requests.length).toBeGreaterThan(100);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${SENTINEL}`)).toBe(true);
    const client = new Redis(redis.port, '127.0.0.1');
    const keys = await client.keys('*');
    let searched = 0;
    for (const key of keys) {
      const dump = await client.dump(key);
      searched += dump?.length ?? 0;
      expect(dump?.includes(SENTINEL) ?? false, key).toBe(false);
    }
    client.disconnect();
    expect(searched).toBeGreaterThan(10_000);
  });

  it('queue status lists the model queue, its three workers and each run with its counts', async () => {
    // Workers find a model's queue by polling the registry (every 2 s): on a loaded machine one may
    // not have joined yet when the status is first read, so it is read until all three are there.
    const read = async () =>
      JSON.parse((await cli('--json', 'queue', 'status', '--queue', redis.url)).stdout);
    let status = await read();
    for (let i = 0; i < 30 && status.models[0]?.workers.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = await read();
    }
    expect(status.models).toEqual([
      expect.objectContaining({ model, waiting: 0, active: 0, failed: 0, workers: expect.any(Array) }),
    ]);
    expect(status.models[0].workers).toHaveLength(3);
    const answer = status.runs.find((r: { kind: string }) => r.kind === 'run');
    expect(answer).toMatchObject({ label: model, state: 'finished', completed: 60, failed: 0, waiting: 0 });
    expect(status.runs.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'grades',
      'nuggets',
      'questions',
      'run',
    ]);
    const text = await cli('queue', 'status', '--queue', redis.url);
    expect(text.stdout).toMatch(/workers connected: .*,.*,/);
  });

  it('--cache redis://… on a local run: a re-run is served from the shared cache', async () => {
    const args = [...answerArgs(), '--cache', `${redis.url.replace(/\/0$/, '/1')}`, '--concurrency', '8'];
    const calls = server.requests.length;
    expect((await cli(...args, '--out', 'cached-1.jsonl')).code).toBe(0);
    expect(server.requests.length - calls).toBe(60);
    const again = await cli(...args, '--out', 'cached-2.jsonl', '--label', 'again');
    expect(again.stdout).toMatch(/answered 60 rows \(0 failed, 0 kept from an earlier run, 60 from cache\)/);
    expect(server.requests.length - calls).toBe(60);
  });

  it('says which flag is wrong: a bad queue URL, --rpm without --queue', async () => {
    const base = [...answerArgs(), '--out', 'x.jsonl'];
    const bad = await cli(...base, '--queue', 'http://host:6379');
    expect(bad.stderr).toMatch(
      /BAD_OPTION.*--queue "http:\/\/host:6379" is not a redis:\/\/ or rediss:\/\/ URL/s,
    );
    const rpm = await cli(...base, '--rpm', '100');
    expect(rpm.stderr).toMatch(/OPTION_REQUIRED.*--rpm is enforced across queue workers/s);
    const secret = await cli(...base, '--queue', 'redis://:hunter2@host:6379/x');
    expect(secret.stderr).toMatch(/BAD_OPTION/);
    expect(secret.stderr).not.toMatch(/hunter2/);
  });

  it('refuses an unreachable queue before writing anything, with a coded error', async () => {
    const r = await cli(...answerArgs(), '--out', 'never.jsonl', '--queue', 'redis://127.0.0.1:1/0');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/QUEUE_UNREACHABLE.*redis:\/\/127\.0\.0\.1:1\/0/s);
    expect(() => readFileSync(join(dir, 'never.jsonl'))).toThrow();
  });
});
