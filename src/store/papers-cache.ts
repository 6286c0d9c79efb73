import { existsSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { type Document, isCitegeistError } from '../core/index.js';
import type { MatchForms } from '../text/index.js';
import { type CorpusStore, type MatchingText, CorpusStore as Store } from './corpus-store.js';

/**
 * A cache of the documents read from a papers folder (`--papers DIR`), so that a paper is parsed
 * and normalised once, not by every command that reads it: a corpus file of its own (documents,
 * match forms) keyed by file path and content hash (the file's bytes and the extractor version,
 * as `ingest` uses), so an edited file or a new extractor misses the cache and is read again. A
 * file not cached at its path is found by its name and content hash (the same paper in another
 * folder: parsing depends only on the bytes, the name and the extractor).
 * Only files holding one document are cached.
 *
 * The cache never fails a command: when it cannot be opened or written (a read-only folder, a
 * corrupt or foreign file), it turns itself off and says why in `problem`; a cache file of another
 * corpus schema version is replaced.
 */
export class PapersCache {
  private store: CorpusStore | null;
  /** Why the cache is off (null while it works). */
  problem: string | null = null;

  private constructor(
    readonly path: string,
    store: CorpusStore | null,
    problem: string | null,
  ) {
    this.store = store;
    this.problem = problem;
  }

  static open(path: string): PapersCache {
    try {
      return new PapersCache(path, Store.open(path, { durable: false }), null);
    } catch (first) {
      // A cache of another schema version, or a file that is not a database, is only a cache:
      // start a new one. Anything else (a busy or unwritable file) turns the cache off.
      const replaceable =
        (isCitegeistError(first) && first.code === 'CORPUS_SCHEMA_MISMATCH') ||
        /not a database|malformed/i.test(message(first));
      try {
        if (!replaceable) throw first;
        for (const suffix of ['', '-wal', '-shm']) {
          if (existsSync(`${path}${suffix}`)) rmSync(`${path}${suffix}`);
        }
        return new PapersCache(path, Store.open(path, { durable: false }), null);
      } catch {
        return new PapersCache(path, null, `the papers cache ${path} cannot be used (${message(first)})`);
      }
    }
  }

  /** The document cached for `file` with this content hash (its id set to `id`), or undefined. */
  document(file: string, hash: string, id: string): Document | undefined {
    const stored = this.storedId(file, hash);
    const doc = stored === undefined ? undefined : this.guard(() => this.store?.get(stored));
    return doc && { ...doc, id };
  }

  /**
   * The text and match forms cached for `file` with this content hash, or undefined; `key` reads
   * the same again (`matchingTextOf`) without the file. `forms: false` reads the text alone.
   */
  matchingText(
    file: string,
    hash: string,
    options: { forms?: boolean } = {},
  ): (MatchingText & { key: string }) | undefined {
    const stored = this.storedId(file, hash);
    const found =
      stored === undefined ? undefined : this.guard(() => this.store?.matchingText(stored, options));
    return found && stored !== undefined ? { ...found, key: stored } : undefined;
  }

  /** What `matchingText` gave with this `key`, read again. */
  matchingTextOf(key: string): MatchingText | undefined {
    return this.guard(() => this.store?.matchingText(key));
  }

  /**
   * Caches the document of `file`; returns its text and the match forms computed as it was stored
   * (undefined when the cache is off), so the caller need not read them back.
   */
  put(file: string, hash: string, doc: Document): (MatchingText & { key: string }) | undefined {
    const forms = new Map<string, MatchForms>();
    const [key] = this.guard(() => this.store?.upsertFile(file, hash, [doc], { forms })) ?? [];
    return key === undefined ? undefined : { text: doc.text, forms: forms.get(key) ?? null, key };
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }

  private storedId(file: string, hash: string): string | undefined {
    const one = (s: { contentHash: string; ids: string[] } | undefined) =>
      s && s.contentHash === hash && s.ids.length === 1 ? s.ids[0] : undefined;
    // The same file (name and bytes) read from another folder parses to the same document: a
    // study laid out again elsewhere (`pack`'s check replay) reads what was parsed here.
    return (
      one(this.guard(() => this.store?.findByFile(file))) ??
      (this.guard(() => this.store?.findByContent(basename(file), hash, file)) ?? [])
        .map(one)
        .find((id) => id !== undefined)
    );
  }

  /** Runs a cache operation; a failure turns the cache off (recorded in `problem`). */
  private guard<T>(operation: () => T): T | undefined {
    if (!this.store) return undefined;
    try {
      return operation();
    } catch (error) {
      this.problem = `the papers cache ${this.path} stopped working (${message(error)})`;
      this.close();
      return undefined;
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
