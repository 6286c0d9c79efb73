import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { CitegeistError, type Document, type ErrorCode, isCitegeistError } from '../core/index.js';
import {
  EXTRACTOR_VERSION,
  fileStem,
  INGESTIBLE_EXTENSIONS,
  ParsePool,
  readDocumentBytes,
} from '../ingest/index.js';
import { readInputBytes, sqliteWriteError } from '../io/index.js';
import type { CorpusStore } from './corpus-store.js';

/** The hash that decides whether a file changed: sha256 of its bytes and the extractor version. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).update(`\0${EXTRACTOR_VERSION}`).digest('hex');
}

export type IngestOutcome =
  | {
      status: 'ingested';
      file: string;
      ids: string[];
      replaced: boolean;
      /** What could not be read, when part of the file is damaged (stored flagged in `meta.damaged`). */
      damaged?: string;
    }
  | { status: 'unchanged'; file: string; ids: string[] }
  | { status: 'failed'; file: string; code: ErrorCode; problem: string; fix: string };

export interface IngestSummary {
  ingested: number;
  unchanged: number;
  failed: number;
  /** Ingested files with unreadable parts (stored, flagged as damaged). */
  damaged: number;
  outcomes: IngestOutcome[];
}

/**
 * The files named by `paths`: files as given, folders walked recursively for the ingestible
 * extensions (hidden entries skipped), in a stable order without duplicates. Symbolic links are
 * followed as a user expects (a folder of links to downloads is a folder of papers): a link to a
 * file is that file, a link to a folder is walked, each real folder once (so a link loop ends). A
 * FIFO or device found in a folder is kept, so that its outcome says why it was not read. A path
 * that does not exist becomes a failed outcome rather than an exception.
 */
export async function expandPaths(paths: readonly string[]): Promise<IngestFiles> {
  const files = new Set<string>();
  const missing: string[] = [];
  const walked = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir);
    if (walked.has(real)) return;
    walked.add(real);
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      // A link is what it points to (a dangling link is skipped: there is nothing to read).
      const target = e.isSymbolicLink() ? await stat(full).catch(() => undefined) : e;
      if (!target) continue;
      if (target.isDirectory()) await walk(full);
      else if (INGESTIBLE_EXTENSIONS.has(extname(e.name).toLowerCase())) files.add(full);
    }
  };
  for (const p of paths) {
    const info = await stat(p).catch(() => undefined);
    if (!info) missing.push(p);
    else if (info.isDirectory()) await walk(p);
    else files.add(p);
  }
  return { files: [...files], missing };
}

export interface IngestOptions {
  /** The most pages one PDF may have (`--max-pdf-pages`; default DEFAULT_MAX_PDF_PAGES). */
  maxPdfPages?: number;
  /**
   * Files parsed at once on worker threads (`--jobs`; default 1: parsed in this thread). The
   * corpus is written by this thread alone, in file order, so its content does not depend on it.
   */
  jobs?: number;
}

/** How a file's bytes become documents (in this thread, or on a `ParsePool`). */
type Parse = (bytes: Uint8Array, context: Parameters<typeof readDocumentBytes>[1]) => Promise<Document[]>;

/** What `expandPaths` found: the files to ingest, and the paths that do not exist. */
export interface IngestFiles {
  files: string[];
  missing: string[];
}

/**
 * `expandPaths`, refusing to find nothing: paths that name no file ingest reads (an empty folder, a
 * folder of other kinds of files) are NOTHING_TO_INGEST, since "ingested 0" with exit 0 hides a
 * wrong path; `allowEmpty` accepts it where an empty folder is expected (a script's first run).
 */
export async function findIngestFiles(
  paths: readonly string[],
  options: { allowEmpty?: boolean } = {},
): Promise<IngestFiles> {
  const found = await expandPaths(paths);
  if (found.files.length === 0 && found.missing.length === 0 && !options.allowEmpty) {
    throw new CitegeistError(
      'NOTHING_TO_INGEST',
      `No file ingest reads was found under ${paths.join(', ')} (it looks for ${[...INGESTIBLE_EXTENSIONS].join(', ')}; hidden files are skipped).`,
      'Check the paths and the file extensions; pass --allow-empty where an empty folder is expected.',
    );
  }
  return found;
}

/** Ingests one file: a no-op when its content hash is stored, else parse and replace atomically. */
export async function ingestFile(
  store: CorpusStore,
  file: string,
  options: IngestOptions = {},
  how: { parse?: Parse; turn?: () => Promise<void> } = {},
): Promise<IngestOutcome> {
  const path = resolve(file);
  try {
    const bytes = new Uint8Array(readInputBytes(path, { what: 'paper' }));
    const hash = contentHash(bytes);
    const stored = store.findByFile(path);
    if (stored && stored.contentHash === hash && stored.ids.length > 0) {
      // Documents ingested before the match forms existed (or by another normaliser) get them now.
      store.refreshMatchForms(stored.ids);
      return { status: 'unchanged', file, ids: stored.ids };
    }
    const docs = await (how.parse ?? readDocumentBytes)(bytes, {
      file,
      id: fileStem(file),
      ...(options.maxPdfPages !== undefined ? { maxPdfPages: options.maxPdfPages } : {}),
    });
    // Parsed in parallel, written in file order: wait for the files before this one.
    await how.turn?.();
    const ids = store.upsertFile(path, hash, docs);
    const damaged = docs
      .map((d) => d.meta.damaged)
      .filter((d) => d !== undefined)
      .join('; ');
    return { status: 'ingested', file, ids, replaced: stored !== undefined, ...(damaged ? { damaged } : {}) };
  } catch (caught) {
    // A full disk or a read-only corpus is not this file's fault, and every file after it would
    // fail the same way: it stops the batch (what was stored before stays).
    const error = sqliteWriteError(caught, store.path, 'corpus', 'CORPUS_READ_ONLY');
    if (isCitegeistError(error) && (error.code === 'DISK_FULL' || error.code === 'CORPUS_READ_ONLY'))
      throw error;
    if (isCitegeistError(error))
      return { status: 'failed', file, code: error.code, problem: error.problem, fix: error.fix };
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as NodeJS.ErrnoException).code;
    return {
      status: 'failed',
      file,
      code: code ? 'FILE_UNREADABLE' : 'INTERNAL',
      problem: `${file}: ${message}`,
      fix: code
        ? 'Check the path and its permissions.'
        : 'Please report this file as a bug (run with --debug).',
    };
  }
}

/**
 * Ingests every file under `paths` into `store`, one at a time; a bad file is recorded as failed and
 * the batch goes on (documents stored before are never touched by a failure).
 */
export async function ingestPaths(
  store: CorpusStore,
  paths: readonly string[] | IngestFiles,
  onProgress?: (done: number, total: number, outcome: IngestOutcome | undefined) => void,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const { files, missing } = 'files' in paths ? paths : await expandPaths(paths);
  const outcomes: IngestOutcome[] = missing.map((file) => ({
    status: 'failed',
    file,
    code: 'FILE_NOT_FOUND',
    problem: `${file} does not exist.`,
    fix: 'Check the path.',
  }));
  onProgress?.(0, files.length, undefined);
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, files.length));
  if (jobs === 1) {
    for (const [i, file] of files.entries()) {
      const outcome = await ingestFile(store, file, options);
      outcomes.push(outcome);
      onProgress?.(i + 1, files.length, outcome);
    }
  } else {
    const pool = new ParsePool(jobs);
    try {
      // A window of files in flight (parsing on the pool), each writing after the one before it.
      const window: Promise<IngestOutcome>[] = [];
      let written: Promise<void> = Promise.resolve();
      let next = 0;
      const launch = () => {
        while (window.length < 2 * jobs && next < files.length) {
          const file = files[next++] as string;
          const before = written;
          let done: () => void = () => {};
          written = new Promise<void>((resolve) => {
            done = resolve;
          });
          const parse: Parse = (bytes, context) => pool.parse(bytes, context);
          window.push(ingestFile(store, file, options, { parse, turn: () => before }).finally(done));
        }
      };
      launch();
      for (let i = 0; window.length > 0; i++) {
        const outcome = await (window.shift() as Promise<IngestOutcome>);
        launch();
        outcomes.push(outcome);
        onProgress?.(i + 1, files.length, outcome);
      }
    } finally {
      await pool.close();
    }
  }
  const count = (s: IngestOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  const damaged = outcomes.filter((o) => o.status === 'ingested' && o.damaged !== undefined).length;
  return {
    ingested: count('ingested'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    damaged,
    outcomes,
  };
}
