/**
 * Where the texts of cited documents come from: a citegeist corpus (a cited id is a paper id or a
 * passage id `<paperId>#<n>` of its index), a JSONL of `{doc_id, text}`, or a folder with one file
 * per document. A cited id that is not found is reported by the judge as a failed judgment, never
 * as a crash and never as "not supported".
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { CitegeistError, location, quoteValue } from '../../core/index.js';
import { parseJsonl, readTextFile } from '../../io/index.js';
import { chunkDocument, docIdOfPassage, loadIndex, type Passage } from '../../retrieve/index.js';
import type { CorpusStore } from '../../store/index.js';

export interface CitedDocument {
  id: string;
  text: string;
  title: string | null;
}

/** Looks up cited documents by id. */
export interface CitedDocumentSource {
  /** What the documents are, for run metadata ("JSONL docs.jsonl (1,204 documents)"). */
  readonly description: string;
  get(id: string): CitedDocument | null;
}

/** `{doc_id, text, title?}` per line (also `docid`/`id` and `contents`/`segment`, as TREC corpora name them). */
export function jsonlDocuments(text: string, file: string): CitedDocumentSource {
  const docs = new Map<string, CitedDocument>();
  for (const line of parseJsonl(text)) {
    const where = location(file, line.line);
    if (!line.ok) throw invalidDocs(`${where} is not JSON (${line.error})`);
    const v = line.value as Record<string, unknown>;
    const id = v.doc_id ?? v.docid ?? v.id;
    const body = v.text ?? v.contents ?? v.segment ?? v.body;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof body !== 'string') {
      throw invalidDocs(`${where} needs "doc_id" and "text" (got keys ${quoteValue(Object.keys(v))})`);
    }
    docs.set(String(id), { id: String(id), text: body, title: typeof v.title === 'string' ? v.title : null });
  }
  return {
    description: `documents JSONL ${file} (${docs.size} documents)`,
    get: (id) => docs.get(id) ?? null,
  };
}

function invalidDocs(problem: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${problem}.`,
    'Give documents as JSONL with one {"doc_id": …, "text": …} per line, a folder of <doc_id>.txt files, or a citegeist corpus.',
  );
}

/**
 * A folder with one text file per document, named `<doc_id>`, `<doc_id>.txt` or `<doc_id>.md`;
 * `shown` is how `description` names it (the CLI gives the path as the user typed it).
 */
export function folderDocuments(dir: string, shown: string = dir): CitedDocumentSource {
  const names = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const ext = extname(name);
    const id = ['.txt', '.md'].includes(ext) ? name.slice(0, -ext.length) : name;
    if (!names.has(id) || ext === '') names.set(id, name);
  }
  return {
    description: `documents folder ${shown} (${names.size} files)`,
    get(id) {
      const name = names.get(id);
      if (!name) return null;
      return { id, text: readTextFile(join(dir, name), 'document'), title: null };
    },
  };
}

/**
 * Papers of a citegeist corpus and their passages: `<paperId>` gives the paper's text,
 * `<paperId>#<n>` the passage of the corpus index (the index folder beside the corpus, or the
 * paper chunked as `citegeist index` chunks it when there is no index).
 */
export function corpusDocuments(
  store: CorpusStore,
  indexDir: string | null,
  /** How the corpus is named in `description` (the CLI gives the path as the user typed it). */
  shown: string = store.path,
): CitedDocumentSource {
  const indexed = indexDir && existsSync(join(indexDir, 'manifest.json')) ? loadIndex(indexDir) : null;
  const passages = new Map<string, Passage>(indexed?.passages.toArray().map((p) => [p.id, p]) ?? []);
  const chunked = new Set<string>();
  const papers = new Map<string, ReturnType<CorpusStore['get']>>();
  const paper = (paperId: string) => {
    if (!papers.has(paperId)) papers.set(paperId, store.get(paperId));
    return papers.get(paperId);
  };
  return {
    description: `citegeist corpus ${shown}${indexed ? ' and its index' : ''}`,
    get(id) {
      const paperId = id.includes('#') ? docIdOfPassage(id) : id;
      const doc = paper(paperId);
      if (!doc) return null;
      if (!id.includes('#')) return { id, text: doc.text, title: doc.title };
      if (!passages.has(id) && !indexed && !chunked.has(paperId)) {
        chunked.add(paperId);
        for (const p of chunkDocument(doc)) passages.set(p.id, p);
      }
      const p = passages.get(id);
      return p ? { id, text: p.text, title: doc.title } : null;
    },
  };
}
