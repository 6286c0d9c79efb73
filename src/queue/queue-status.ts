import { KEY_PREFIX, registryKeys } from './call-job.js';
import { loadBullmq, openRedis } from './redis-client.js';
import { connectionOptions, type RedisTarget } from './redis-target.js';

/** A coordinator silent for longer than this has stopped without saying so (killed, or its machine). */
const GONE_AFTER_MS = 15_000;

export interface ModelQueueStatus {
  model: string;
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
  /** Workers connected to this queue, by name (host pid …). */
  workers: string[];
  /** The queue-wide limit, if one is set (`--rpm` on a coordinator). */
  rateLimit: { max: number; durationMs: number } | null;
}

export interface RunStatus {
  run_id: string;
  label: string;
  kind: string;
  coordinator: string;
  /** running, finished, stopped (closed with calls outstanding) or gone (no heartbeat). */
  state: string;
  started_at: string;
  updated_at: string;
  enqueued: number;
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  cached: number;
  /** Calls completed in the last minute. */
  per_minute: number;
}

export interface QueueStatus {
  redis: string;
  models: ModelQueueStatus[];
  runs: RunStatus[];
}

/** What the queue holds now: per model queue, and per run (most recent first). */
export async function readQueueStatus(
  target: RedisTarget,
  options: { runs?: number } = {},
): Promise<QueueStatus> {
  const client = await openRedis(target, 'status');
  const { Queue } = await loadBullmq();
  try {
    const registered = await client.hgetall(registryKeys.models);
    const activeByRun = new Map<string, number>();
    const models: ModelQueueStatus[] = [];
    for (const [name, model] of Object.entries(registered).sort((a, b) => a[1].localeCompare(b[1]))) {
      const queue = new Queue(name, { connection: connectionOptions(target), prefix: KEY_PREFIX });
      try {
        const counts = await queue.getJobCounts(
          'waiting',
          'prioritized',
          'active',
          'delayed',
          'completed',
          'failed',
        );
        const workers = await queue.getWorkers();
        const limit = await queue.getGlobalRateLimit();
        for (const job of await queue.getJobs(['active'])) {
          const run = (job?.data as { run?: { id?: string } } | undefined)?.run?.id;
          if (run) activeByRun.set(run, (activeByRun.get(run) ?? 0) + 1);
        }
        models.push({
          model,
          queue: name,
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          completed: counts.completed ?? 0,
          failed: counts.failed ?? 0,
          // A worker's connections are named <queue>:w:<its name> (BullMQ).
          workers: [...new Set(workers.map((w) => w.rawname?.split(':w:')[1] ?? w.addr ?? '?'))].sort(),
          rateLimit: limit ? { max: limit.max, durationMs: limit.duration } : null,
        });
      } finally {
        await queue.close();
      }
    }
    const ids = await client.zrevrange(registryKeys.runs, 0, (options.runs ?? 20) - 1);
    const runs: RunStatus[] = [];
    for (const id of ids) {
      const r = await client.hgetall(registryKeys.run(id));
      if (!r.label && !r.kind) continue;
      runs.push(runStatus(id, r, activeByRun.get(id) ?? 0));
    }
    return { redis: target.display, models, runs };
  } finally {
    await client.quit().catch(() => client.disconnect());
  }
}

function runStatus(id: string, r: Record<string, string>, active: number): RunStatus {
  const n = (field: string) => Number(r[field] ?? 0) || 0;
  const updated = n('updated_at');
  const gone = r.state === 'running' && Date.now() - updated > GONE_AFTER_MS;
  const inFlight = r.state === 'running' || gone ? n('in_flight') : 0;
  return {
    run_id: id,
    label: r.label ?? '',
    kind: r.kind ?? '',
    coordinator: r.coordinator ?? '',
    state: gone ? 'gone' : (r.state ?? 'running'),
    started_at: r.started_at ?? '',
    updated_at: updated ? new Date(updated).toISOString() : '',
    enqueued: n('enqueued'),
    waiting: Math.max(0, inFlight - active),
    active,
    completed: n('completed'),
    failed: n('failed'),
    cached: n('cached'),
    per_minute: gone ? 0 : n('per_minute'),
  };
}
