import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CitegeistError, type Document, sha256Hex } from '../core/index.js';
import type { MatchForms } from '../text/index.js';
import type { MatchingText } from './corpus-store.js';
import { PAPERS_CACHE_PATH, PapersDir } from './load-document.js';
import { openCorpus } from './open-corpus.js';

/** Where paper texts come from: `--papers DIR` (file named `<paper_id>.<ext>`) or `--corpus`. */
export interface PaperSourceOptions {
  papers?: string;
  corpus?: string;
}

/**
 * The flags that name a paper source on a command line (` --corpus demo-output/corpus.sqlite`), for a
 * fix line that must show the same problem when run as printed; '' for none.
 */
export function sourceFlags(options: PaperSourceOptions): string {
  const arg = (value: string) =>
    /^[\w./:@+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
  if (options.corpus) return ` --corpus ${arg(options.corpus)}`;
  if (options.papers) return ` --papers ${arg(options.papers)}`;
  return '';
}

/** How a manifest names a paper source (`corpus:<file>` or `papers:<dir>`, as given). */
export function describeSource(options: PaperSourceOptions): string {
  return options.corpus ? `corpus:${options.corpus}` : options.papers ? `papers:${options.papers}` : 'none';
}

/**
 * The papers a grading reads, loaded when their rows are graded (so a run over hundreds of papers
 * holds one or two at a time): each paper's text and the quote matcher's stored forms of it, and
 * up front the hash of every text, for the grades manifest.
 */
export interface GradingPapers {
  /** `sha256Hex` of each paper's text; null for a paper not found. */
  hashes: Map<string, string | null>;
  /** Ids not found. */
  missing: string[];
  /** A paper's text (null: not found). */
  text(id: string): string | null;
  /** The stored forms of a paper's text (null: none stored; computed when grading). */
  forms(id: string): MatchForms | null;
  close(): void;
}

/**
 * Reads every paper once (caching what a papers folder parses), hashes it, and keeps only what
 * cannot be read again cheaply (a paper the folder's cache could not keep); see `GradingPapers`.
 */
export async function loadGradingPapers(
  ids: Iterable<string>,
  options: PaperSourceOptions,
  cwd: string,
  warn: (message: string) => void = () => {},
  use: { cache?: boolean } = {},
): Promise<GradingPapers> {
  const source = matchingTextSource(options, cwd, use.cache !== false);
  const hashes = new Map<string, string | null>();
  const missing: string[] = [];
  const kept = new Map<string, MatchingText>();
  try {
    for (const id of new Set(ids)) {
      // The forms are read when the paper is graded (`again`); now only its text is hashed.
      const paper = await source.get(id, { forms: false });
      hashes.set(id, paper ? sha256Hex(paper.text) : null);
      if (!paper) missing.push(id);
      else if (!source.canReadAgain(id)) kept.set(id, paper);
    }
  } catch (error) {
    source.close();
    throw error;
  }
  const problem = source.problem();
  if (problem) warn(`${problem}; papers are read without it`);
  // The last paper read: the grader asks for its text, then its forms.
  let last: { id: string; paper: MatchingText | undefined } | null = null;
  const read = (id: string) => {
    if (last?.id !== id)
      last = { id, paper: kept.get(id) ?? (hashes.get(id) ? source.again(id) : undefined) };
    return last.paper;
  };
  return {
    hashes,
    missing,
    text: (id) => read(id)?.text ?? null,
    forms: (id) => read(id)?.forms ?? null,
    close: () => source.close(),
  };
}

/**
 * Paper texts with their match forms, from the corpus or a papers folder (see `paperSource`):
 * `get` reads a paper the first time, `again` reads it again synchronously where `canReadAgain`
 * says the source can (the corpus, or the folder's cache).
 */
function matchingTextSource(options: PaperSourceOptions, cwd: string, cache: boolean) {
  checkSource(options);
  if (options.corpus) {
    const store = openCorpus(resolve(cwd, options.corpus));
    return {
      get: async (id: string, options?: { forms?: boolean }): Promise<MatchingText | undefined> =>
        store.matchingText(id, options),
      again: (id: string): MatchingText | undefined => store.matchingText(id),
      canReadAgain: (_id: string) => true,
      problem: () => null,
      close: () => store.close(),
    };
  }
  const papers = openPapersDir(options, cwd, cache);
  return {
    get: async (id: string, options?: { forms?: boolean }) =>
      papers.fileOf(id) === undefined ? undefined : papers.matchingText(id, options),
    again: (id: string) => papers.cachedMatchingText(id),
    canReadAgain: (id: string) => papers.isCached(id),
    problem: () => papers.cacheProblem,
    close: () => papers.close(),
  };
}

/**
 * A loader of paper documents by id: from `--corpus` (the document with that id in the corpus
 * store) or from `--papers DIR` (the file whose name without extension is the id, in any
 * ingestible format). Unknown ids give null; an unreadable paper file is an error.
 */
export function paperSource(
  options: PaperSourceOptions,
  cwd: string,
  use: { cache?: boolean } = {},
): (id: string) => Promise<Document | null> {
  checkSource(options);
  if (options.corpus) {
    const store = openCorpus(resolve(cwd, options.corpus));
    const cache = new Map<string, Document | null>();
    return async (id) => {
      if (!cache.has(id)) cache.set(id, store.get(id) ?? null);
      return cache.get(id) ?? null;
    };
  }
  const papers = openPapersDir(options, cwd, use.cache !== false);
  return async (id) => (papers.fileOf(id) === undefined ? null : papers.load(id));
}

/** Throws when a command is given both paper sources, or none (before it reads anything). */
export function checkSource(options: PaperSourceOptions): void {
  if (options.corpus && options.papers) {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      'Both --corpus and --papers were given.',
      'Give one source of papers: --corpus FILE or --papers DIR.',
    );
  }
  if (!options.corpus && !options.papers) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      'No paper source was given.',
      'Add --corpus FILE (papers ingested with `citegeist ingest`) or --papers DIR (files named <paper_id>.pdf|.txt|.md|.nxml…).',
    );
  }
}

/**
 * The papers folder, with the workspace's cache of its documents (`.citegeist/papers-cache.sqlite`)
 * unless `cache` is false (a dry run writes nothing).
 */
function openPapersDir(options: PaperSourceOptions, cwd: string, cache = true): PapersDir {
  const dir = resolve(cwd, options.papers ?? '');
  if (!existsSync(dir)) {
    throw new CitegeistError('FILE_NOT_FOUND', `The papers folder ${dir} does not exist.`, 'Check --papers.');
  }
  return PapersDir.open(dir, cache ? { cache: resolve(cwd, PAPERS_CACHE_PATH) } : {});
}
