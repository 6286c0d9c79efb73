/**
 * What a nugget step has finished, one JSON line per unit (a document, a pair, a cluster, a
 * nugget), appended and fsynced as each completes: a killed run resumes at the first unit not in
 * its log, and a unit whose model call failed is simply not logged, so a rerun retries it. Units
 * are keyed by their content (request, texts), so when an earlier step's output changes, the
 * units it no longer produces are ignored rather than reused.
 */
import { existsSync } from 'node:fs';
import { JsonlAppender, parseJsonl, readTextFile } from '../../core/index.js';

export class StepLog<T extends object> {
  private readonly records = new Map<string, T>();
  private appender: JsonlAppender | null = null;

  constructor(
    readonly path: string,
    private readonly keyOf: (record: T) => string,
  ) {
    if (!existsSync(path)) return;
    // A torn last line (killed mid-write) is skipped: that unit is redone.
    for (const line of parseJsonl(readTextFile(path, 'nugget step log'))) {
      if (line.ok && line.value && typeof line.value === 'object') {
        const record = line.value as T;
        this.records.set(this.keyOf(record), record);
      }
    }
  }

  get size(): number {
    return this.records.size;
  }

  get(key: string): T | undefined {
    return this.records.get(key);
  }

  /** Every record, in the order first logged (a unit logged again keeps its place). */
  entries(): T[] {
    return [...this.records.values()];
  }

  put(record: T): void {
    this.records.set(this.keyOf(record), record);
    this.appender ??= new JsonlAppender(this.path);
    this.appender.append(record);
  }

  close(): void {
    this.appender?.close();
    this.appender = null;
  }
}

/** A unit key from its parts (NUL never occurs in the texts). */
export const unitKey = (...parts: string[]): string => parts.join('\u0000');
