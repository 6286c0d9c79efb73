import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway `redis-server` (Debian's package) on 127.0.0.1 at a free port, with its own temporary
 * folder and no persistence, for the queue tests. `findRedisServer()` says whether one is
 * installed; tests skip with that message when not (`.ci/run` installs it).
 */
export class RedisTestServer {
  private child: ChildProcess | undefined;
  private dir: string | undefined;
  port = 0;

  constructor(private readonly options: { password?: string } = {}) {}

  /** The server's process id (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    const auth = this.options.password ? `:${encodeURIComponent(this.options.password)}@` : '';
    return `redis://${auth}127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<this> {
    const binary = findRedisServer();
    if (!binary) throw new Error(REDIS_MISSING);
    this.port = await freePort();
    this.dir = mkdtempSync(join(tmpdir(), 'citegeist-redis-'));
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      ...(this.options.password ? ['--requirepass', this.options.password] : []),
    ];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        log += d.toString();
        if (/Ready to accept connections/.test(log)) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${log.slice(-500)}`)));
      setTimeout(
        () => reject(new Error(`redis-server did not start in 10 s: ${log.slice(-500)}`)),
        10_000,
      ).unref();
    });
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

export const REDIS_MISSING =
  'redis-server is not installed: the queue tests need it (Debian: apt-get install -y redis-server; .ci/run installs it)';

/** The redis-server binary, or null when none is installed. */
export function findRedisServer(): string | null {
  for (const path of ['/usr/bin/redis-server', '/usr/local/bin/redis-server'])
    if (existsSync(path)) return path;
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
