import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError, type Document } from '../../core/index.js';
import { PapersDir } from '../../store/index.js';
import type { CliContext } from '../context.js';
import { corpusPath, openCorpus } from '../corpus-option.js';

/** Adds `--papers DIR` and `--corpus FILE`, the two sources `paperSource` reads. */
export function addPaperSourceOptions(command: Command): Command {
  return command
    .option('--papers <dir>', 'paper files named <paper_id>.pdf|.txt|.md')
    .option(
      '--corpus <file>',
      'corpus store with the papers (default without --papers: "corpus" in the config file, else .citegeist/corpus.sqlite when it exists)',
    );
}

/**
 * The paper source of a command: the flags when one is given, else the configured corpus, else the
 * workspace's default corpus when it exists (what `citegeist ingest` writes); else none, and
 * `paperSource` says what to add.
 */
export function paperSourceOf(ctx: CliContext, flags: PaperSourceOptions): PaperSourceOptions {
  if (flags.papers || flags.corpus) return flags;
  const path = corpusPath(ctx, undefined);
  // A configured corpus is used even when missing (opening it says so); the default only if it exists.
  return ctx.config().corpus || existsSync(path) ? { corpus: path } : {};
}

/** Where paper texts come from: `--papers DIR` (file named `<paper_id>.<ext>`) or `--corpus`. */
export interface PaperSourceOptions {
  papers?: string;
  corpus?: string;
}

/** How a manifest names a paper source (`corpus:<file>` or `papers:<dir>`, as given). */
export function describeSource(options: PaperSourceOptions): string {
  return options.corpus ? `corpus:${options.corpus}` : options.papers ? `papers:${options.papers}` : 'none';
}

/**
 * Loads the text of each paper id from a `paperSource` loader. Missing papers map to null (metrics
 * that need the text are then `failed`). Returns the texts and the ids not found.
 */
export async function loadPaperTexts(
  ids: Iterable<string>,
  source: (id: string) => Promise<Document | null>,
): Promise<{ texts: Map<string, string>; missing: string[] }> {
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
 * A loader of paper documents by id: from `--corpus` (the document with that id in the corpus
 * store) or from `--papers DIR` (the file whose name without extension is the id, in any
 * ingestible format). Unknown ids give null; an unreadable paper file is an error.
 */
export function paperSource(
  options: PaperSourceOptions,
  cwd: string,
): (id: string) => Promise<Document | null> {
  if (options.corpus && options.papers) {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      'Both --corpus and --papers were given.',
      'Give one source of papers: --corpus FILE or --papers DIR.',
    );
  }
  if (options.corpus) {
    const store = openCorpus(resolve(cwd, options.corpus));
    const cache = new Map<string, Document | null>();
    return async (id) => {
      if (!cache.has(id)) cache.set(id, store.get(id) ?? null);
      return cache.get(id) ?? null;
    };
  }
  if (!options.papers) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      'No paper source was given.',
      'Add --corpus FILE (papers ingested with `citegeist ingest`) or --papers DIR (files named <paper_id>.pdf|.txt|.md|.nxml…).',
    );
  }
  const dir = resolve(cwd, options.papers);
  if (!existsSync(dir)) {
    throw new CitegeistError('FILE_NOT_FOUND', `The papers folder ${dir} does not exist.`, 'Check --papers.');
  }
  const papers = PapersDir.open(dir);
  // Each paper is read once per source (the dataset check and the run share it: a PDF is parsed once).
  const cache = new Map<string, Promise<Document | null>>();
  return (id) => {
    let doc = cache.get(id);
    if (!doc) {
      doc = papers.fileOf(id) === undefined ? Promise.resolve(null) : papers.load(id);
      cache.set(id, doc);
    }
    return doc;
  };
}
