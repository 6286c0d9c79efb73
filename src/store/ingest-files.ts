import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { type ErrorCode, isCitegeistError } from '../core/index.js';
import { EXTRACTOR_VERSION, fileStem, INGESTIBLE_EXTENSIONS, readDocumentBytes } from '../ingest/index.js';
import { readInputBytes } from '../io/index.js';
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
 * extensions (hidden entries skipped), in a stable order without duplicates. A path that does not
 * exist becomes a failed outcome rather than an exception.
 */
export async function expandPaths(paths: readonly string[]): Promise<{ files: string[]; missing: string[] }> {
  const files = new Set<string>();
  const missing: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && INGESTIBLE_EXTENSIONS.has(extname(e.name).toLowerCase())) files.add(full);
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

/** Ingests one file: a no-op when its content hash is stored, else parse and replace atomically. */
export async function ingestFile(store: CorpusStore, file: string): Promise<IngestOutcome> {
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
    const docs = await readDocumentBytes(bytes, { file, id: fileStem(file) });
    const ids = store.upsertFile(path, hash, docs);
    const damaged = docs
      .map((d) => d.meta.damaged)
      .filter((d) => d !== undefined)
      .join('; ');
    return { status: 'ingested', file, ids, replaced: stored !== undefined, ...(damaged ? { damaged } : {}) };
  } catch (error) {
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
  paths: readonly string[],
  onProgress?: (done: number, total: number, outcome: IngestOutcome | undefined) => void,
): Promise<IngestSummary> {
  const { files, missing } = await expandPaths(paths);
  const outcomes: IngestOutcome[] = missing.map((file) => ({
    status: 'failed',
    file,
    code: 'FILE_NOT_FOUND',
    problem: `${file} does not exist.`,
    fix: 'Check the path.',
  }));
  onProgress?.(0, files.length, undefined);
  for (const [i, file] of files.entries()) {
    const outcome = await ingestFile(store, file);
    outcomes.push(outcome);
    onProgress?.(i + 1, files.length, outcome);
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
