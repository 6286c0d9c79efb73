import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { CitegeistError, type Document, quoteValue } from '../core/index.js';
import { fileStem, INGESTIBLE_EXTENSIONS, readDocumentBytes } from '../ingest/index.js';
import { readInputBytes } from '../io/index.js';
import { CorpusStore, type MatchingText } from './corpus-store.js';
import { contentHash } from './ingest-files.js';
import { PapersCache } from './papers-cache.js';

/** Where a workspace keeps its corpus, relative to the workspace folder. */
export const DEFAULT_CORPUS_PATH = join('.citegeist', 'corpus.sqlite');
/** Where a workspace caches the documents read from papers folders (see `PapersCache`). */
export const PAPERS_CACHE_PATH = join('.citegeist', 'papers-cache.sqlite');

export function defaultCorpusPath(cwd: string): string {
  return resolve(cwd, DEFAULT_CORPUS_PATH);
}

export interface LoadOptions {
  /** The corpus file (default: `.citegeist/corpus.sqlite` under `cwd`). */
  corpus?: string;
  /** Folder relative paths are resolved against (default: the process's working folder). */
  cwd?: string;
}

function pickOne(docs: Document[], file: string): Document {
  if (docs.length === 1) return docs[0]!;
  throw new CitegeistError(
    'DOCUMENT_AMBIGUOUS',
    `${file} holds ${docs.length} documents (${quoteValue(docs.map((d) => d.id).slice(0, 5))}…).`,
    'Ingest the file (`citegeist ingest`) and name one document by its id.',
  );
}

/**
 * A document by file path (any ingestible format) or by its id in the corpus. A file that is in
 * the corpus unchanged is read from there (no re-extraction).
 */
export async function loadDocument(pathOrId: string, options: LoadOptions = {}): Promise<Document> {
  const cwd = options.cwd ?? process.cwd();
  const corpusPath = options.corpus ? resolve(cwd, options.corpus) : defaultCorpusPath(cwd);
  const store = existsSync(corpusPath) ? CorpusStore.open(corpusPath, { readonly: true }) : undefined;
  try {
    const file = resolve(cwd, pathOrId);
    if (existsSync(file) && statSync(file).isFile()) {
      const bytes = new Uint8Array(readInputBytes(file, { what: 'paper' }));
      const stored = store?.findByFile(file);
      if (stored && stored.contentHash === contentHash(bytes) && stored.ids.length === 1) {
        const doc = store?.get(stored.ids[0]!);
        if (doc) return doc;
      }
      return pickOne(await readDocumentBytes(bytes, { file: pathOrId, id: fileStem(file) }), pathOrId);
    }
    const doc = store?.get(pathOrId);
    if (doc) return doc;
    throw new CitegeistError(
      'PAPER_NOT_FOUND',
      `${quoteValue(pathOrId)} is neither a file nor a document id in ${store ? `the corpus ${corpusPath}` : `a corpus (there is none at ${corpusPath})`}.`,
      store
        ? 'Run `citegeist list` to see the ids, or give a file path.'
        : 'Give a file path, or ingest papers first with `citegeist ingest <files>`.',
    );
  } finally {
    store?.close();
  }
}

/** Order in which formats are preferred when a folder holds one paper in several formats. */
const PREFERENCE = ['.pdf', '.nxml', '.xml', '.json', '.md', '.markdown', '.txt'];

export interface PapersDirOptions {
  /**
   * A cache file (`PapersCache`) for the folder's documents and their match forms, so a paper is
   * parsed once across commands (created when missing). Without it, every command parses again.
   */
  cache?: string;
}

/**
 * The papers of a folder by id, as `answer`/`grade --papers DIR` need them: the paper with id X
 * is the ingestible file of DIR whose stem is X (`X.pdf`, `X.txt`, `X.tei.xml`, …). Documents are
 * extracted on first use (or read from the cache) and kept.
 */
export class PapersDir {
  private readonly loaded = new Map<string, Promise<Document>>();
  /** Cache keys of the papers `matchingText` found in the cache. */
  private readonly cacheKeys = new Map<string, string>();

  private constructor(
    readonly dir: string,
    private readonly files: Map<string, string>,
    private readonly cache: PapersCache | null,
  ) {}

  /** Why the cache is off (null when it works or none was asked for). */
  get cacheProblem(): string | null {
    return this.cache?.problem ?? null;
  }

  static open(dir: string, options: PapersDirOptions = {}): PapersDir {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      throw new CitegeistError(
        'FILE_UNREADABLE',
        `Papers folder ${dir} cannot be read.`,
        'Check the --papers path.',
        {
          cause: error,
        },
      );
    }
    const files = new Map<string, string>();
    const rank = (f: string) => {
      const r = PREFERENCE.indexOf(extname(f).toLowerCase());
      return r < 0 ? PREFERENCE.length : r;
    };
    for (const name of names) {
      if (name.startsWith('.') || !INGESTIBLE_EXTENSIONS.has(extname(name).toLowerCase())) continue;
      const id = fileStem(name);
      const prev = files.get(id);
      if (prev === undefined || rank(name) < rank(prev)) files.set(id, name);
    }
    return new PapersDir(dir, files, options.cache ? PapersCache.open(options.cache) : null);
  }

  ids(): string[] {
    return [...this.files.keys()];
  }

  /**
   * The file holding paper `id`, or undefined. A URL id (the published ResearchQA dataset's
   * `paper_id` is the OpenAlex URL, https://openalex.org/W…) is also found by its last segment,
   * the name its generator and `citegeist collect` give the PDF.
   */
  fileOf(id: string): string | undefined {
    const name =
      this.files.get(id) ?? (/^https?:\/\//.test(id) ? this.files.get(lastSegment(id)) : undefined);
    return name === undefined ? undefined : join(this.dir, name);
  }

  /** The paper `id`; throws PAPER_NOT_FOUND naming the folder when there is no such file. */
  load(id: string): Promise<Document> {
    let doc = this.loaded.get(id);
    if (!doc) {
      doc = this.read(id);
      this.loaded.set(id, doc);
    }
    return doc;
  }

  /**
   * The text of paper `id` and the quote matcher's forms of it (from the cache, where they were
   * computed when the paper was first read; null without a cache): what grading needs.
   * `forms: false` is for a caller that only needs the text now (it reads the forms later with
   * `cachedMatchingText`): a cached paper's forms are then not decoded.
   */
  async matchingText(id: string, options: { forms?: boolean } = {}): Promise<MatchingText> {
    const { file, bytes } = await this.bytesOf(id);
    const hash = contentHash(bytes);
    let cached = this.cache?.matchingText(file, hash, options);
    if (!cached) {
      // Parsed without keeping the Document (`load` keeps it): grading reads the cache from now on.
      const pending = this.loaded.get(id);
      const fresh = pending
        ? { doc: await pending, stored: this.cache?.matchingText(file, hash, options) }
        : await this.parse(id, { file, bytes, hash });
      cached = fresh.stored;
      if (!cached) return { text: fresh.doc.text, forms: null };
    }
    this.cacheKeys.set(id, cached.key);
    return { text: cached.text, forms: cached.forms };
  }

  /** Whether `cachedMatchingText(id)` can read the paper again. */
  isCached(id: string): boolean {
    return this.cacheKeys.has(id);
  }

  /**
   * What `matchingText(id)` last gave, read again synchronously from the cache (undefined when it
   * was not cached): the very text read then, even if the file changed since.
   */
  cachedMatchingText(id: string): MatchingText | undefined {
    const key = this.cacheKeys.get(id);
    return key === undefined ? undefined : this.cache?.matchingTextOf(key);
  }

  /** Closes the cache. */
  close(): void {
    this.cache?.close();
  }

  private async bytesOf(id: string): Promise<{ file: string; bytes: Uint8Array }> {
    const file = this.fileOf(id);
    if (file === undefined) {
      throw new CitegeistError(
        'PAPER_NOT_FOUND',
        `No paper file for id ${quoteValue(id)} in ${this.dir} (expected ${id}.pdf, ${id}.txt, ${id}.nxml, …).`,
        'Add the paper to the folder, or check the paper ids of the rows.',
      );
    }
    // Read synchronously (the guarded reader): for a paper-sized file that is several times
    // cheaper than a promise.
    return { file, bytes: new Uint8Array(readInputBytes(file, { what: 'paper' })) };
  }

  private async read(id: string): Promise<Document> {
    const { file, bytes } = await this.bytesOf(id);
    const hash = this.cache ? contentHash(bytes) : '';
    return this.cache?.document(file, hash, id) ?? (await this.parse(id, { file, bytes, hash })).doc;
  }

  /**
   * Parses paper `id` and caches it (a file holding one document); `stored` is what the cache
   * kept, with the match forms computed as it was stored.
   */
  private async parse(
    id: string,
    { file, bytes, hash }: { file: string; bytes: Uint8Array; hash: string },
  ): Promise<{ doc: Document; stored: (MatchingText & { key: string }) | undefined }> {
    const docs = await readDocumentBytes(bytes, { file, id });
    const doc = docs.find((d) => d.id === id) ?? pickOne(docs, file);
    const stored = docs.length === 1 ? this.cache?.put(file, hash, doc) : undefined;
    return { doc, stored };
  }
}

/** The file in `dir` whose stem is `id` (see PapersDir), or undefined. */
export function findPaperFile(dir: string, id: string): string | undefined {
  return PapersDir.open(dir).fileOf(id);
}

/** The last non-empty path segment of a URL. */
function lastSegment(url: string): string {
  return url.split(/[?#]/)[0]!.split('/').filter(Boolean).pop() ?? url;
}
