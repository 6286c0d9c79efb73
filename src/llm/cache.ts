import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CitegeistError } from '../core/index.js';
import { sqliteWriteError, systemError } from '../io/index.js';
import type { TokenUsage } from './provider.js';

/** normal: read and write; no-cache: neither; cache-only: read, and a miss fails the call. */
export type CacheMode = 'normal' | 'no-cache' | 'cache-only';

export interface CachedReply {
  text: string;
  usage: TokenUsage | null;
}

/**
 * Where chat replies are cached: the workspace's SQLite file (`ResponseCache`), or a Redis shared
 * by several machines (`RedisReplyCache` in the queue module). `get` may answer at once or later.
 */
export interface ReplyCache {
  get(key: string): CachedReply | undefined | Promise<CachedReply | undefined>;
  /** Stores a successful reply (best effort: a cache that cannot store drops it). */
  set(key: string, model: string, reply: CachedReply): void;
}

/** Bump when the key recipe or stored shape changes, so old rows stop matching. */
const KEY_VERSION = 'citegeist-llm-cache-v1';

/**
 * The cache key: sha256 over everything that can change a reply — provider kind, model, base URL,
 * messages, schema, temperature, seed and maxTokens. API keys are never part of it.
 */
export function cacheKey(parts: {
  kind: string;
  model: string;
  baseUrl: string | null;
  messages: unknown;
  schema?: unknown;
  temperature?: number | undefined;
  seed?: number | undefined;
  maxTokens?: number | undefined;
}): string {
  const material = JSON.stringify([
    KEY_VERSION,
    parts.kind,
    parts.model,
    parts.baseUrl,
    parts.messages,
    parts.schema === undefined ? null : schemaText(parts.schema),
    parts.temperature ?? null,
    parts.seed ?? null,
    parts.maxTokens ?? null,
  ]);
  return createHash('sha256').update(material).digest('hex');
}

const schemaTexts = new WeakMap<object, string>();
/** JSON of a schema object, memoised per object (schemas repeat across thousands of calls). */
function schemaText(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return JSON.stringify(schema);
  let text = schemaTexts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    schemaTexts.set(schema, text);
  }
  return text;
}

/** One stored chat reply, as the cache table holds it. */
export interface StoredReply {
  key: string;
  model: string;
  text: string;
  input_tokens: number | null;
  output_tokens: number | null;
}

/**
 * The SQLite response cache (better-sqlite3, WAL). One file per workspace holds chat replies and
 * embedding vectors. Only successful replies are stored; no request text and no secret is stored,
 * only the key hash, the model name, the reply and its token usage.
 */
export class ResponseCache implements ReplyCache {
  private readonly db: Database.Database;
  private readonly pending = new Map<string, { model: string; reply: CachedReply }>();
  private flushTimer: NodeJS.Immediate | undefined;
  private readonly getReply: Database.Statement<
    [string],
    { text: string; input: number | null; output: number | null }
  >;
  private readonly putReply: Database.Statement<
    [string, string, string, number | null, number | null, string]
  >;
  private readonly getVector: Database.Statement<[string], { vec: Buffer }>;
  private readonly putVector: Database.Statement<[string, string, number, Buffer]>;

  /** Set once a write failed (a full disk): replies are no longer stored; set() is a no-op. */
  private failed = false;
  private closed = false;
  /**
   * `citegeist pack` replays a study against the workspace cache and keeps exactly the replies
   * served, which this log names (one key a line); read once here, not on every hit.
   */
  private readonly usedLog = process.env.CITEGEIST_CACHE_USED;

  /**
   * Opens (creating) the cache at `path`; ':memory:' for a throwaway one. `warn` hears, once, that
   * replies could no longer be stored (a full disk): the cache then stops writing, and the command
   * goes on, since its results are in its own output, not here.
   */
  constructor(
    readonly path: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('mmap_size = 268435456');
      this.db.exec(`
      CREATE TABLE IF NOT EXISTS llm_replies (
        key TEXT PRIMARY KEY, model TEXT NOT NULL, text TEXT NOT NULL,
        input_tokens INTEGER, output_tokens INTEGER, created_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS embeddings (
        key TEXT PRIMARY KEY, model TEXT NOT NULL, dims INTEGER NOT NULL, vec BLOB NOT NULL);`);
      this.getReply = this.db.prepare(
        'SELECT text, input_tokens AS input, output_tokens AS output FROM llm_replies WHERE key = ?',
      );
      this.putReply = this.db.prepare(
        'INSERT OR REPLACE INTO llm_replies (key, model, text, input_tokens, output_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      this.getVector = this.db.prepare('SELECT vec FROM embeddings WHERE key = ?');
      this.putVector = this.db.prepare(
        'INSERT OR REPLACE INTO embeddings (key, model, dims, vec) VALUES (?, ?, ?, ?)',
      );
    } catch (error) {
      throw sqliteWriteError(systemError(error, path, 'response cache', 'write'), path, 'response cache');
    }
  }

  get(key: string): CachedReply | undefined {
    const pending = this.pending.get(key);
    if (pending) return pending.reply;
    const row = this.getReply.get(key);
    if (!row) return undefined;
    if (this.usedLog) appendFileSync(this.usedLog, `${key}\n`);
    const usage =
      row.input === null || row.output === null ? null : { inputTokens: row.input, outputTokens: row.output };
    return { text: row.text, usage };
  }

  /**
   * Stores a reply. Writes are queued and committed in one transaction per event-loop turn (one
   * commit per reply costs more than the rest of a cached call); `flush()` commits at once.
   */
  set(key: string, model: string, reply: CachedReply): void {
    // After close (a call that ended after its command failed) or a failed write: nothing to store.
    if (this.closed || this.failed) return;
    this.pending.set(key, { model, reply });
    this.flushTimer ??= setImmediate(() => this.flush());
  }

  /**
   * Commits queued writes now (called on close). A write that fails (a full disk, a read-only
   * file) is reported once through `warn` and stops the cache writing; it never throws, so a timer
   * flush cannot crash the process and close() always closes the database.
   */
  flush(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.size === 0 || this.closed || this.failed) return;
    const rows = [...this.pending.entries()];
    this.pending.clear();
    try {
      this.commit(rows);
    } catch (error) {
      this.failed = true;
      const coded = sqliteWriteError(error, this.path, 'response cache');
      const why =
        coded instanceof CitegeistError ? `[${coded.code}] ${coded.problem} ${coded.fix}` : String(error);
      this.warn(`replies are no longer cached (the results are not affected): ${why}`);
    }
  }

  private commit(rows: [string, { model: string; reply: CachedReply }][]): void {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const [key, { model, reply }] of rows) {
        this.putReply.run(
          key,
          model,
          reply.text,
          reply.usage?.inputTokens ?? null,
          reply.usage?.outputTokens ?? null,
          now,
        );
      }
    })();
  }

  getEmbedding(key: string): Float32Array | undefined {
    const row = this.getVector.get(key);
    if (!row) return undefined;
    const copy = new Uint8Array(row.vec);
    return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
  }

  setEmbedding(key: string, model: string, vector: Float32Array): void {
    if (this.closed || this.failed) return;
    this.putVector.run(
      key,
      model,
      vector.length,
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    );
  }

  /**
   * The stored replies of `keys` (those present), read from a cache file opened read-only: what
   * `citegeist pack` keeps of a workspace's cache. The table's layout stays this class's business.
   */
  static storedReplies(path: string, keys: readonly string[]): StoredReply[] {
    const db = new Database(path, { readonly: true });
    try {
      const get = db.prepare<[string], StoredReply>(
        'SELECT key, model, text, input_tokens, output_tokens FROM llm_replies WHERE key = ?',
      );
      return keys.flatMap((k) => get.get(k) ?? []);
    } finally {
      db.close();
    }
  }

  /** Number of stored chat replies (for reports and tests). */
  get size(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM llm_replies').get() as { n: number }).n;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }
}
