import { existsSync } from 'node:fs';
import { CitegeistError } from '../core/index.js';
import { CorpusStore } from './corpus-store.js';

/** Opens an existing corpus file read-only; a missing file says how to create one (`CORPUS_NOT_FOUND`). */
export function openCorpus(path: string): CorpusStore {
  if (!existsSync(path)) {
    throw new CitegeistError(
      'CORPUS_NOT_FOUND',
      `There is no corpus at ${path}.`,
      'Ingest papers first (`citegeist ingest <files or folders>`), or pass --corpus <file>.',
    );
  }
  return CorpusStore.open(path, { readonly: true });
}
