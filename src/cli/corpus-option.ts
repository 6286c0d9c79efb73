import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CitegeistError } from '../core/index.js';
import { CorpusStore, DEFAULT_CORPUS_PATH, defaultCorpusPath } from '../store/index.js';
import type { CliContext } from './context.js';

export const CORPUS_OPTION = [
  '--corpus <file>',
  'corpus file (default: .citegeist/corpus.sqlite in the current folder)',
] as const;

/** The corpus file: `--corpus`, else `corpus` in the config file, else the workspace default. */
export function corpusPath(ctx: CliContext, flag: string | undefined): string {
  const configured = flag ?? ctx.config().corpus;
  return configured ? resolve(ctx.io.cwd, configured) : defaultCorpusPath(ctx.io.cwd);
}

/** Shortens an absolute path under the working folder for display. */
export function displayPath(ctx: CliContext, path: string): string {
  const cwd = ctx.io.cwd.endsWith('/') ? ctx.io.cwd : `${ctx.io.cwd}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

/** Opens an existing corpus read-only; a missing file says how to create one. */
export function openCorpus(path: string): CorpusStore {
  requireCorpus(path);
  return CorpusStore.open(path, { readonly: true });
}

/**
 * Throws CORPUS_NOT_FOUND when there is no corpus file at `path`: every command that reads a corpus
 * (list, show, index, search, retrieve, …) says this one thing, before looking for an index.
 */
export function requireCorpus(path: string): void {
  if (existsSync(path)) return;
  const flag = path.endsWith(DEFAULT_CORPUS_PATH) ? '' : ` --corpus ${path}`;
  throw new CitegeistError(
    'CORPUS_NOT_FOUND',
    `There is no corpus at ${path}.`,
    `Ingest papers into it first (\`citegeist ingest <files or folders>${flag}\`), or pass --corpus with the file \`citegeist ingest\` wrote.`,
  );
}
