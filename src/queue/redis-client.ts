import type { Redis } from 'ioredis';
import { CitegeistError } from '../core/index.js';
import { connectionOptions, type RedisTarget } from './redis-target.js';

/**
 * BullMQ and ioredis are loaded only when a command is given `--queue` or a Redis `--cache`, so
 * every other command starts as fast as before.
 */
export function loadBullmq(): Promise<typeof import('bullmq')> {
  return import('bullmq');
}
const loadIoredis = () => import('ioredis');

/** How long the first connection may take before the command stops with QUEUE_UNREACHABLE. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Opens a connection and checks it answers: a server that cannot be reached, refuses the password
 * or is too old stops the command with a coded error before anything is enqueued. Later outages
 * only pause the work (the client reconnects for ever).
 */
export async function openRedis(target: RedisTarget, role: string): Promise<Redis> {
  const { Redis } = await loadIoredis();
  const client = new Redis({
    ...connectionOptions(target),
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: `citegeist-${role}`,
  });
  // Errors after the first connection are reported by the owner's own listener.
  client.on('error', () => {});
  try {
    await withTimeout(client.connect(), CONNECT_TIMEOUT_MS + 500);
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw connectError(target, error);
  }
  return client;
}

/** The coded error for a failed first connection (unreachable, wrong password). */
export function connectError(target: RedisTarget, error: unknown): CitegeistError {
  const message = (error as Error).message ?? String(error);
  if (/NOAUTH|WRONGPASS|invalid password|AUTH/i.test(message)) {
    return new CitegeistError(
      'QUEUE_AUTH',
      `Redis at ${target.display} refused the connection: ${message}.`,
      'Give the password in the URL (redis://:PASSWORD@host:6379/0) or in CITEGEIST_REDIS_PASSWORD.',
    );
  }
  return new CitegeistError(
    'QUEUE_UNREACHABLE',
    `Redis at ${target.display} cannot be reached: ${message}.`,
    'Start Redis there (see docs/scale-out.md), or correct the host, port and database in the URL.',
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
