import { closeSync, existsSync, fsync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import {
  CitegeistError,
  describeIssues,
  isManifestRecord,
  location,
  manifestDifferences,
  parseManifest,
  type RunManifest,
} from '../core/index.js';
import { removeAtomicLeftovers, removeFilesIn, writeAll, writeFileAtomic } from './atomic-write.js';
import { FileLock } from './file-lock.js';
import { type JsonlLine, parseJsonl } from './jsonl.js';
import { readTextFile, systemError } from './read-input.js';

type Row = Record<string, unknown>;

/** Longest a row appended to a run file waits before its fsync starts. */
const FSYNC_EVERY_MS = 200;

export interface RunFileOptions {
  manifest: RunManifest;
  /** The field that identifies a row (`row_id`, `id`, `paper_id`). */
  idField: string;
  /** Rows an earlier attempt wrote that stay (default all); the others are removed and redone. */
  keep?: (row: Row) => boolean;
  /** "run file", "grades file": for messages. */
  what: string;
  /** The command writing it, recorded in the lock (e.g. "citegeist answer"). */
  command: string;
  /** A row's id when it is not the top-level `idField` (a report-run line names it in `metadata`). */
  rowId?: RowKey;
  /**
   * Keep the manifest in this file beside the output instead of as the output's first line: for
   * interchange formats whose files hold only their own lines (a RAGTIME report run).
   */
  manifestPath?: string;
  /**
   * Facts written into the `manifestPath` file beside the manifest's own fields, rewritten at every
   * open because they describe the latest attempt (input hashes a resumed run may change, paths
   * found): never compared on resume, and never replacing a manifest field.
   */
  besideFacts?: Record<string, unknown>;
  /** How a row is written as one line (default `JSON.stringify`). */
  format?: (row: object) => string;
}

/** What an existing output holds, as a resume would see it. */
export interface RunFileState {
  exists: boolean;
  /** The manifest in the file (null for a new or empty file). */
  manifest: RunManifest | null;
  /** Rows a resume keeps, in file order. */
  kept: Row[];
  /** Rows a resume removes to redo them (failed ones), plus a torn last line. */
  redo: number;
  torn: boolean;
}

/**
 * A `keep` for `RunFileOptions` that first validates a row with `schema`: a row that does not parse
 * was not written by this command, so it is an error (RUN_FILE_CORRUPT), never silently redone.
 */
export function keepParsed<T>(
  schema: z.ZodType<T>,
  what: string,
  keep: (row: T) => boolean,
  idField = 'row_id',
): (row: Row) => boolean {
  return (value) => {
    const row = schema.safeParse(value);
    if (!row.success) {
      throw new CitegeistError(
        'RUN_FILE_CORRUPT',
        `${what} "${String(value[idField] ?? value.id)}" is not valid (${describeIssues(row.error)}).`,
        'The file was edited: write to a new file (another --out).',
      );
    }
    return keep(row.data);
  };
}

/**
 * The manifest record heading JSONL lines, and the rows after it. A manifest anywhere else, or a
 * file without one when `required`, is an error naming the file.
 */
export function takeManifest(
  lines: JsonlLine[],
  path: string,
  required: boolean,
): { manifest: RunManifest | null; rows: JsonlLine[] } {
  const first = lines[0];
  const manifest =
    first?.ok && isManifestRecord(first.value)
      ? parseManifest(first.value, location(path, first.line))
      : null;
  const rows = manifest ? lines.slice(1) : lines;
  const second = rows.find((l) => l.ok && isManifestRecord(l.value));
  if (second) {
    throw new CitegeistError(
      'RUN_FILE_CORRUPT',
      `${location(path, second.line)} is a second manifest: the file holds more than one run.`,
      'Keep one run per file: split it, or answer/grade again into a new file.',
    );
  }
  if (!manifest && required && rows.length > 0) {
    throw new CitegeistError(
      'RUN_FILE_FOREIGN',
      `${path} already holds rows but no citegeist manifest: it was written by another tool or an older citegeist, and resuming into it could lose its rows.`,
      'Write to a new file (another --out), or move this one away.',
    );
  }
  return { manifest, rows };
}

/**
 * The manifest kept beside an output (`RunFileOptions.manifestPath`), and the output's lines as
 * rows. An output holding rows without its manifest file was not written by this command.
 */
function manifestBeside(
  manifestPath: string,
  lines: JsonlLine[],
  path: string,
): { manifest: RunManifest | null; rows: JsonlLine[] } {
  if (!existsSync(manifestPath)) {
    if (lines.length > 0) {
      throw new CitegeistError(
        'RUN_FILE_FOREIGN',
        `${path} already holds rows but ${manifestPath}, which records how they were made, is missing: resuming into it could mix runs.`,
        'Write to a new file (another --out), or move this one away.',
      );
    }
    return { manifest: null, rows: lines };
  }
  const text = readTextFile(manifestPath, 'run manifest', { output: true });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  return { manifest: parseManifest(value, manifestPath), rows: lines };
}

/**
 * Reads an existing output for a resume without changing it: checks that it holds this run (its
 * manifest agrees) and that every row is one this command wrote, and says what a resume keeps.
 * Throws RUN_MANIFEST_MISMATCH (listing the differences), RUN_FILE_FOREIGN or RUN_FILE_CORRUPT.
 */
export function inspectRunFile(path: string, options: RunFileOptions): RunFileState {
  const empty = !existsSync(path) || (statSync(path).isFile() && statSync(path).size === 0);
  // A manifest kept beside an empty output still names the run that output belongs to.
  if (empty && !(options.manifestPath && existsSync(options.manifestPath))) {
    return { exists: false, manifest: null, kept: [], redo: 0, torn: false };
  }
  const text = empty ? '' : readTextFile(path, `${options.what} being resumed`, { output: true });
  const lines = parseJsonl(text);
  // A line cut short by a crash (no newline after it) is the only damage a killed writer leaves.
  const last = lines.at(-1);
  const torn = last !== undefined && !text.endsWith('\n');
  const complete = torn ? lines.slice(0, -1) : lines;
  const { manifest, rows } = options.manifestPath
    ? manifestBeside(options.manifestPath, complete, path)
    : takeManifest(complete, path, true);
  if (!manifest) {
    // Only a torn manifest (a crash right at the start): nothing of value is in the file.
    return { exists: true, manifest: null, kept: [], redo: 0, torn };
  }
  const differences = manifestDifferences(manifest, options.manifest);
  if (differences.length > 0) {
    throw new CitegeistError(
      'RUN_MANIFEST_MISMATCH',
      `${path} holds the run "${manifest.label}" made with other settings or inputs, so it cannot be resumed by this one:\n    ${differences.join('\n    ')}`,
      'Write to a new file (another --out), or run with the settings and inputs recorded in the file.',
    );
  }
  const keep = options.keep ?? (() => true);
  const kept: Row[] = [];
  const keptAt = new Map<string, number>();
  let redo = torn ? 1 : 0;
  for (const line of rows) {
    const where = location(path, line.line);
    const row = line.ok ? line.value : undefined;
    const id =
      row && typeof row === 'object'
        ? options.rowId
          ? options.rowId(row as Row)
          : (row as Row)[options.idField]
        : undefined;
    if (typeof id !== 'string') {
      throw new CitegeistError(
        'RUN_FILE_CORRUPT',
        `${where} is not a row this command wrote (${line.ok ? `no ${options.rowId ? options.idField : `string "${options.idField}"`}` : 'not JSON'}).`,
        'The file was edited or written by another program: write to a new file (another --out).',
      );
    }
    if (keptAt.has(id)) {
      throw new CitegeistError(
        'RUN_FILE_CORRUPT',
        `${where} repeats ${options.idField} "${id}" (first at line ${keptAt.get(id)}).`,
        'The file was edited or two files were joined: write to a new file (another --out).',
      );
    }
    if (keep(row as Row)) {
      keptAt.set(id, line.line);
      kept.push(row as Row);
    } else redo++;
  }
  return { exists: true, manifest, kept, redo, torn };
}

/**
 * A JSONL output that holds one run: the manifest first, then one complete row per line, each
 * fsynced at most FSYNC_EVERY_MS after it is appended. Opening it takes the file's lock (so no other process writes it
 * meanwhile), checks an existing file with `inspectRunFile`, and — only when something must go —
 * rewrites it atomically without the rows to redo and without a torn last line. Rows are never
 * dropped behind a writer: the rewrite happens under the lock, before this process appends.
 */
export class RunFile {
  private fd: number | null;
  /** The pending fsync of rows appended since the last one started (null: none pending). */
  private syncTimer: NodeJS.Timeout | null = null;
  /** An fsync is running on libuv's thread pool; `closeAfterSync`: close the file when it ends. */
  private syncing = false;
  private closeAfterSync = false;

  private constructor(
    readonly path: string,
    readonly manifest: RunManifest,
    readonly state: RunFileState,
    private readonly lock: FileLock,
    private readonly format: (row: object) => string = (row) => JSON.stringify(row),
  ) {
    this.fd = openSync(path, 'a');
  }

  static open(path: string, options: RunFileOptions): RunFile {
    // The output's folder is made as writeFileAtomic makes it (`--out runs/a.jsonl` in a new
    // folder); where it cannot be, taking the lock fails with the reason and the path.
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch {}
    const lock = FileLock.acquire(path, options.command);
    try {
      removeLeftovers(path);
      const state = inspectRunFile(path, options);
      const manifest = state.manifest ?? options.manifest;
      const format = options.format ?? ((row: object) => JSON.stringify(row));
      const head = options.manifestPath ? [] : [JSON.stringify(manifest)];
      if (options.manifestPath && (!state.manifest || options.besideFacts))
        writeFileAtomic(options.manifestPath, besideText(manifest, options.besideFacts));
      if (!state.manifest) {
        writeFileAtomic(path, head.map((l) => `${l}\n`).join(''));
      } else if (state.redo > 0) {
        const lines = [...head, ...state.kept.map((r) => format(r))].map((l) => `${l}\n`);
        writeFileAtomic(path, lines.join(''));
      }
      return new RunFile(path, manifest, state, lock, format);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Rows kept from an earlier attempt. */
  get kept(): Row[] {
    return this.state.kept;
  }

  /** Stale locks removed on the way in (a killed earlier run), for a notice. */
  get tookOverFrom(): { pid: number; command: string; started_at: string }[] {
    return this.lock.tookOver;
  }

  /**
   * Appends one row as one complete line. The write reaches the kernel at once, so a killed process
   * loses nothing it appended; the fsync (against a power cut) starts at most FSYNC_EVERY_MS later,
   * on libuv's thread pool, covering every row appended until then, and once more at close: 50,000
   * fast rows wait neither for 50,000 disk flushes nor for any (a flush took 20–40 ms on a busy
   * disk). What a power cut takes is redone on resume.
   */
  append(row: object): void {
    if (this.fd === null) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `RunFile ${this.path} is closed.`,
        'Append rows before close().',
      );
    }
    this.lock.assertHeld();
    try {
      writeAll(this.fd, `${this.format(row)}\n`);
    } catch (error) {
      throw systemError(error, this.path, 'output', 'write');
    }
    this.syncTimer ??= setTimeout(() => this.syncInBackground(), FSYNC_EVERY_MS).unref();
  }

  close(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    const fd = this.fd;
    if (fd !== null) {
      try {
        fsyncSync(fd);
      } catch (error) {
        this.fd = null;
        if (!this.syncing) closeSync(fd);
        this.lock.release();
        throw systemError(error, this.path, 'output', 'write');
      }
      // A background fsync still running holds the descriptor: it is closed when that one ends.
      if (this.syncing) this.closeAfterSync = true;
      else closeSync(fd);
    }
    this.fd = null;
    this.lock.release();
  }

  /**
   * Opens a second JSONL output under this file's lock, for rows that belong to this file's units
   * but have no manifest of their own and may be several per unit (a generated dataset beside its
   * progress file). Rows `keep` refuses (of units not finished) and a torn last line are removed
   * first, by an atomic rewrite, only when something must go. Close it before this file.
   */
  companion(path: string, keep: (row: Row) => boolean): RunFileCompanion {
    this.lock.assertHeld();
    return new RunFileCompanion(path, keep, this.lock);
  }

  private syncInBackground(): void {
    this.syncTimer = null;
    const fd = this.fd;
    if (fd === null) return;
    if (this.syncing) {
      // The last one has not ended: try again later (the rows since are still covered then).
      this.syncTimer = setTimeout(() => this.syncInBackground(), FSYNC_EVERY_MS).unref();
      return;
    }
    this.syncing = true;
    fsync(fd, () => {
      // A failed flush is not retried here: the fsync at close reports it.
      this.syncing = false;
      if (this.closeAfterSync) closeSync(fd);
    });
  }
}

/** The manifest kept beside an output, with the facts of the latest attempt after its own fields. */
function besideText(manifest: RunManifest, facts: Record<string, unknown> = {}): string {
  const extra = Object.fromEntries(Object.entries(facts).filter(([k]) => !(k in manifest)));
  return `${JSON.stringify({ ...manifest, ...extra }, null, 2)}\n`;
}

/** A JSONL output written under a run file's lock (`RunFile.companion`). */
export class RunFileCompanion {
  private fd: number | null;

  constructor(
    readonly path: string,
    keep: (row: Row) => boolean,
    private readonly lock: FileLock,
  ) {
    if (existsSync(path)) {
      const text = readTextFile(path, 'output being resumed', { output: true });
      const lines = parseJsonl(text);
      const kept = lines.filter(
        (l) => l.ok && l.value !== null && typeof l.value === 'object' && keep(l.value as Row),
      );
      if (kept.length !== lines.length || !text.endsWith('\n')) {
        writeFileAtomic(path, kept.map((l) => `${JSON.stringify(l.ok ? l.value : null)}\n`).join(''));
      }
    }
    this.fd = openSync(path, 'a');
  }

  /**
   * Appends rows, one line each, and flushes them to disk before returning: the line that says
   * their unit is finished (in the run file) must never outlive them in a power cut.
   */
  appendAll(rows: readonly object[]): void {
    if (this.fd === null) {
      throw new CitegeistError('INVALID_ARGUMENT', `${this.path} is closed.`, 'Append rows before close().');
    }
    if (rows.length === 0) return;
    this.lock.assertHeld();
    try {
      writeAll(this.fd, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      fsyncSync(this.fd);
    } catch (error) {
      throw systemError(error, this.path, 'output', 'write');
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Temporary files a killed writer of `path` left (a rewrite cut short before its rename, a lock
 * file cut short before its link): removed under the lock; lock temporaries only when a minute old,
 * since another process may be about to link its own.
 */
function removeLeftovers(path: string): void {
  const dir = dirname(path);
  const lock = new RegExp(`^${escapeRegExp(basename(path))}\\.lock\\.[0-9a-f-]{36}\\.tmp$`);
  removeAtomicLeftovers(dir, (target) => target === basename(path));
  removeFilesIn(dir, (name, full) => lock.test(name) && Date.now() - statSync(full).mtimeMs > 60_000);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The unit a row of a JSONL output belongs to (its id), or undefined for a line that names none. */
export type RowKey = (row: Record<string, unknown>) => string | undefined;

/** A row's unit by one of its fields (`row_id`, `paper_id`). */
export const byField =
  (field: string): RowKey =>
  (row) => {
    const id = row[field];
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  };

/**
 * Puts the rows of a finished output in the order of its units (`order`: keys), under the file's
 * lock, by an atomic rewrite: they are sorted among the places they hold, so a manifest and rows
 * of keys not in `order` stay where they are, rows of one unit keep their own order, and a file
 * already in order is left alone. Every command that appends rows as calls finish (concurrent
 * calls, threads, queue workers) calls it when done, so one run gives the same bytes however it ran,
 * and a study pack replays it byte for byte (docs/packs.md). `companions` (a
 * generated dataset beside its progress file) are reordered under the same lock. Returns whether
 * anything was rewritten.
 */
export function reorderRunFile(
  path: string,
  o: { command: string; key: RowKey; order: readonly string[]; companions?: { path: string; key: RowKey }[] },
): boolean {
  const rank = new Map(o.order.map((id, i) => [id, i]));
  const lock = FileLock.acquire(path, o.command);
  try {
    let changed = false;
    for (const file of [{ path, key: o.key }, ...(o.companions ?? [])]) {
      if (!existsSync(file.path)) continue;
      const sorted = sortLines(readTextFile(file.path, 'output', { output: true }), file.key, rank);
      if (sorted === null) continue;
      writeFileAtomic(file.path, sorted);
      changed = true;
    }
    return changed;
  } finally {
    lock.release();
  }
}

/**
 * The text with the rows of ranked keys sorted among the places they hold (stable); the manifest,
 * and rows of other keys, stay where they are. Null when already sorted.
 */
function sortLines(text: string, key: RowKey, rank: Map<string, number>): string | null {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const ranked: { line: string; at: number; r: number }[] = [];
  lines.forEach((line, at) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    if (!value || typeof value !== 'object' || (at === 0 && isManifestRecord(value))) return;
    const r = rank.get(key(value as Row) ?? '');
    if (r !== undefined) ranked.push({ line, at, r });
  });
  const sorted = [...ranked].sort((a, b) => a.r - b.r || a.at - b.at);
  if (sorted.every((k, i) => k === ranked[i])) return null;
  const out = [...lines];
  sorted.forEach((k, i) => {
    out[ranked[i]!.at] = k.line;
  });
  return out.map((l) => `${l}\n`).join('');
}
