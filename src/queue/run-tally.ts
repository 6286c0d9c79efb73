import type { ChainableCommander } from 'ioredis';
import { type CallReply, type QueueRun, registryKeys } from './call-job.js';

/** Run records outlive their run by a week (`queue status` shows recent runs). */
export const RUN_RECORD_TTL_S = 7 * 24 * 3600;
/** Throughput is counted over this window. */
const RATE_WINDOW_MS = 60_000;

/**
 * One run's calls as its coordinator sees them, published to `citegeist:run:<run id>` every second:
 * counts are added (HINCRBY), so a resumed run's totals continue; calls in flight, the rate over
 * the last minute and the heartbeat are overwritten. Completed (and cached) calls are counted by the
 * worker that completes them, when it completes them (`countCompleted`): counted here, the calls
 * that came back in the last second before a coordinator was killed, and those completed while no
 * coordinator was running, were never published (a campaign saw 1,001 of 1,005).
 */
export class RunTally {
  private readonly delta = { enqueued: 0, failed: 0 };
  private inFlight = 0;
  private recent: number[] = [];
  private state: 'running' | 'finished' | 'stopped' = 'running';
  private readonly startedAt = new Date().toISOString();

  constructor(
    readonly run: QueueRun,
    private readonly coordinator: string,
  ) {}

  enqueued(): void {
    this.delta.enqueued++;
    this.inFlight++;
  }

  /** A call came back (null: it could not be enqueued at all). */
  settled(reply: CallReply | null): void {
    this.inFlight--;
    if (!reply) {
      this.delta.enqueued--;
      return;
    }
    if (!reply.ok) this.delta.failed++;
    this.recent.push(Date.now());
  }

  /** The coordinator is closing: finished when nothing is outstanding, else stopped (resumable). */
  finish(done: boolean): void {
    this.state = done ? 'finished' : 'stopped';
  }

  publish(pipeline: ChainableCommander): void {
    const now = Date.now();
    this.recent = this.recent.filter((t) => now - t < RATE_WINDOW_MS);
    const key = registryKeys.run(this.run.id);
    pipeline.hsetnx(key, 'started_at', this.startedAt);
    pipeline.hset(key, {
      label: this.run.label,
      kind: this.run.kind,
      coordinator: this.coordinator,
      state: this.state,
      in_flight: String(this.inFlight),
      per_minute: String(this.recent.length),
      updated_at: String(now),
    });
    for (const [field, n] of Object.entries(this.delta)) if (n !== 0) pipeline.hincrby(key, field, n);
    pipeline.expire(key, RUN_RECORD_TTL_S);
    pipeline.zadd(registryKeys.runs, now, this.run.id);
    this.delta.enqueued = this.delta.failed = 0;
  }
}

/**
 * Counts one completed call on its run's record, in the worker that completed it, in the same
 * moment: the count survives a coordinator killed at any point (see `RunTally`).
 */
export function countCompleted(pipeline: ChainableCommander, runId: string, cached: boolean): void {
  const key = registryKeys.run(runId);
  pipeline.hincrby(key, 'completed', 1);
  if (cached) pipeline.hincrby(key, 'cached', 1);
  pipeline.expire(key, RUN_RECORD_TTL_S);
}
