import { CitegeistError, quoteValue } from '../core/index.js';

/** Where a queue or a shared cache lives: a parsed `redis://[user:password@]host[:port][/db]`. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL with any password masked: what messages, status and logs show. */
  display: string;
}

/** Whether a `--cache` or `--queue` value names a Redis server rather than a file. */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value.trim());
}

/**
 * Parses a Redis URL; throws BAD_OPTION naming the flag. (The CLI takes the password from
 * `CITEGEIST_REDIS_PASSWORD` when the URL has none: a URL with a password shows in the process list.)
 */
export function parseRedisUrl(value: string, flag: string): RedisTarget {
  const bad = (why: string) =>
    new CitegeistError(
      'BAD_OPTION',
      `${flag} ${quoteValue(mask(value))} ${why}.`,
      `Give a Redis URL such as ${flag} redis://127.0.0.1:6379/0 (password: redis://:PASSWORD@host:6379/0, or set CITEGEIST_REDIS_PASSWORD).`,
    );
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw bad('is not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw bad('is not a redis:// or rediss:// URL');
  if (!url.hostname) throw bad('names no host');
  const path = url.pathname.replace(/^\/+/, '');
  if (path !== '' && !/^\d+$/.test(path)) throw bad(`has "${path}" where a database number belongs`);
  if (url.search || url.hash) throw bad('has options this tool does not read (?… or #…)');
  const port = url.port === '' ? 6379 : Number(url.port);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  const target: RedisTarget = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    db: path === '' ? 0 : Number(path),
    tls: url.protocol === 'rediss:',
    display: `${url.protocol}//${url.host}/${path === '' ? '0' : path}`,
  };
  if (url.username) target.username = decodeURIComponent(url.username);
  if (password) target.password = password;
  return target;
}

/** ioredis connection options for a target (BullMQ's blocking connections need no request limit). */
export function connectionOptions(target: RedisTarget): Record<string, unknown> {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // Reconnect for ever, at most every 2 s: a Redis restart pauses a run, it does not end it.
    retryStrategy: (times: number) => Math.min(2000, 50 * times),
  };
}

/** A URL with its password replaced by ***. */
function mask(value: string): string {
  return value.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
