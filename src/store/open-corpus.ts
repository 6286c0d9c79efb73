import { existsSync } from 'node:fs';
import { CitegeistError } from '../core/index.js';
import { CorpusStore } from './corpus-store.js';
import { DEFAULT_CORPUS_PATH } from './load-document.js';

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

/** Opens an existing corpus read-only; a missing file says how to create one. */
export function openCorpus(path: string): CorpusStore {
  requireCorpus(path);
  return CorpusStore.open(path, { readonly: true });
}
