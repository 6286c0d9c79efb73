import { existsSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { CitegeistError, readTextFile } from '../../core/index.js';
import { readDocumentFile } from '../../ingest/index.js';

const PLAIN = new Set(['.txt', '.md', '.markdown']);

/** Where paper texts come from: `--papers DIR` (file named `<paper_id>.<ext>`) or `--corpus`. */
export interface PaperSourceOptions {
  papers?: string;
  corpus?: string;
}

/**
 * Loads the text of each paper id: from `--papers DIR`, the file whose name without extension is
 * the id (Markdown/text read as is; PDF and other formats through ingest). Missing papers map to
 * null (metrics that need the text are then `failed`). Returns the texts and the ids not found.
 */
export async function loadPaperTexts(
  ids: Iterable<string>,
  options: PaperSourceOptions,
  cwd: string,
): Promise<{ texts: Map<string, string>; missing: string[] }> {
  if (options.corpus) {
    throw new CitegeistError(
      'CORPUS_NOT_SUPPORTED_YET',
      `--corpus ${options.corpus}: reading papers from a corpus store is not wired into this command yet.`,
      'Give the paper files with --papers DIR (files named <paper_id>.pdf|.txt|.md).',
    );
  }
  if (!options.papers) {
    throw new CitegeistError(
      'NO_PAPERS',
      'No paper source was given.',
      'Add --papers DIR (files named <paper_id>.pdf|.txt|.md).',
    );
  }
  const dir = resolve(cwd, options.papers);
  if (!existsSync(dir)) {
    throw new CitegeistError(
      'PAPERS_DIR_NOT_FOUND',
      `The papers folder ${dir} does not exist.`,
      'Check --papers.',
    );
  }
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const id = name.slice(0, name.length - extname(name).length);
    if (!files.has(id) || PLAIN.has(extname(name).toLowerCase())) files.set(id, join(dir, name));
  }
  const texts = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const file = files.get(id);
    if (!file) {
      missing.push(id);
      continue;
    }
    if (PLAIN.has(extname(file).toLowerCase())) texts.set(id, readTextFile(file, 'paper'));
    else texts.set(id, (await readDocumentFile(file, id)).map((d) => d.text).join('\n\n'));
  }
  return { texts, missing };
}
