import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { TokenUsage } from './provider.js';

/** normal: read and write; no-cache: neither; cache-only: read, and a miss fails the call. */
export type CacheMode = 'normal' | 'no-cache' | 'cache-only';

export interface CachedReply {
  text: string;
  usage: TokenUsage | null;
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
    parts.schema ?? null,
    parts.temperature ?? null,
    parts.seed ?? null,
    parts.maxTokens ?? null,
  ]);
  return createHash('sha256').update(material).digest('hex');
}

/**
 * The SQLite response cache (better-sqlite3, WAL). One file per workspace holds chat replies and
 * embedding vectors. Only successful replies are stored; no request text and no secret is stored,
 * only the key hash, the model name, the reply and its token usage.
 */
export class ResponseCache {
  private readonly db: Database.Database;
  private readonly getReply: Database.Statement<
    [string],
    { text: string; input: number | null; output: number | null }
  >;
  private readonly putReply: Database.Statement<
    [string, string, string, number | null, number | null, string]
  >;
  private readonly getVector: Database.Statement<[string], { vec: Buffer }>;
  private readonly putVector: Database.Statement<[string, string, number, Buffer]>;

  /** Opens (creating) the cache at `path`; ':memory:' for a throwaway one. */
  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
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
  }

  get(key: string): CachedReply | undefined {
    const row = this.getReply.get(key);
    if (!row) return undefined;
    const usage =
      row.input === null || row.output === null ? null : { inputTokens: row.input, outputTokens: row.output };
    return { text: row.text, usage };
  }

  set(key: string, model: string, reply: CachedReply): void {
    this.putReply.run(
      key,
      model,
      reply.text,
      reply.usage?.inputTokens ?? null,
      reply.usage?.outputTokens ?? null,
      new Date().toISOString(),
    );
  }

  getEmbedding(key: string): Float32Array | undefined {
    const row = this.getVector.get(key);
    if (!row) return undefined;
    const copy = new Uint8Array(row.vec);
    return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
  }

  setEmbedding(key: string, model: string, vector: Float32Array): void {
    this.putVector.run(
      key,
      model,
      vector.length,
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    );
  }

  /** Number of stored chat replies (for reports and tests). */
  get size(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM llm_replies').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
