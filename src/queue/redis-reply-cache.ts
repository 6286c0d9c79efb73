import type { Redis } from 'ioredis';
import type { CachedReply, ReplyCache } from '../llm/index.js';
import { registryKeys } from './call-job.js';
import { openRedis } from './redis-client.js';
import type { RedisTarget } from './redis-target.js';

/**
 * The response cache in a Redis that several machines share (`--cache redis://…`): a re-run on
 * any machine, or by any worker, is still a cache hit. Same keys as the SQLite cache (a hash of
 * provider kind, model, base URL, messages, schema and parameters); the value is the reply text
 * and its token usage, never the request or a key. A cache that stops answering turns into
 * misses (with one warning), never into failed calls.
 */
export class RedisReplyCache implements ReplyCache {
  private client: Redis | undefined;
  private opening: Promise<Redis> | undefined;
  private warned = false;

  constructor(
    readonly target: RedisTarget,
    private readonly onWarning: (message: string) => void = () => {},
  ) {}

  /** Connects once; rejects with QUEUE_UNREACHABLE or QUEUE_AUTH (checked before a run starts). */
  async open(): Promise<void> {
    this.opening ??= openRedis(this.target, 'cache').then((client) => {
      client.on('error', (e: Error) => this.warn(e));
      this.client = client;
      return client;
    });
    await this.opening;
  }

  async get(key: string): Promise<CachedReply | undefined> {
    try {
      await this.open();
      const value = await this.client?.get(registryKeys.cache(key));
      if (!value) return undefined;
      const parsed = JSON.parse(value) as { text?: unknown; usage?: CachedReply['usage'] };
      return typeof parsed.text === 'string' ? { text: parsed.text, usage: parsed.usage ?? null } : undefined;
    } catch (error) {
      this.warn(error as Error);
      return undefined;
    }
  }

  set(key: string, model: string, reply: CachedReply): void {
    const value = JSON.stringify({
      model,
      text: reply.text,
      usage: reply.usage,
      at: new Date().toISOString(),
    });
    void this.open()
      .then(() => this.client?.set(registryKeys.cache(key), value))
      .catch((error: Error) => this.warn(error));
  }

  close(): void {
    const client = this.client;
    if (client) void client.quit().catch(() => client.disconnect());
  }

  private warn(error: Error): void {
    if (this.warned) return;
    this.warned = true;
    this.onWarning(`cache at ${this.target.display}: ${error.message}; calls go on without it`);
  }
}
