import { existsSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { CitegeistError, type Document, DocumentSchema, readTextFile } from '../../core/index.js';
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
  const source = paperSource(options, cwd);
  const texts = new Map<string, string>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const doc = await source(id);
    if (doc) texts.set(id, doc.text);
    else missing.push(id);
  }
  return { texts, missing };
}

/**
 * A loader of paper documents by id (cached): from `--papers DIR`, the file whose name without
 * extension is the id; Markdown/text become a document of that text, other formats go through
 * ingest. Unknown ids give null.
 */
export function paperSource(
  options: PaperSourceOptions,
  cwd: string,
): (id: string) => Promise<Document | null> {
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
  const cache = new Map<string, Promise<Document | null>>();
  const load = async (id: string): Promise<Document | null> => {
    const file = files.get(id);
    if (!file) return null;
    if (!PLAIN.has(extname(file).toLowerCase())) {
      const docs = await readDocumentFile(file, id);
      return docs[0] ?? null;
    }
    const text = readTextFile(file, 'paper');
    const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? id;
    return DocumentSchema.parse({
      id,
      title,
      source: extname(file) === '.txt' ? 'text' : 'markdown',
      text,
      meta: { file },
    });
  };
  return (id) => {
    let p = cache.get(id);
    if (!p) {
      p = load(id);
      cache.set(id, p);
    }
    return p;
  };
}
