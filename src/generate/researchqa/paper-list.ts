import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CitegeistError, location } from '../../core/index.js';
import { readDocumentFile } from '../../ingest/index.js';
import { parseJsonl, readTextFile } from '../../io/index.js';
import { CorpusStore, PapersDir, paperSource } from '../../store/index.js';
import type { ManifestEntry } from '../openalex/index.js';

/** The papers to generate questions for, with their domains, and a reader of each one's text. */
export type PaperList = {
  papers: { id: string; domain: string }[];
  load: (id: string) => Promise<string | null>;
};

/** The papers of a `collect openalex` manifest (files beside it; their domains from it). */
function fromManifest(path: string): PaperList {
  const entries = parseJsonl(readTextFile(path, 'manifest')).map((entry) => {
    const e = entry.ok ? (entry.value as Partial<ManifestEntry> | null) : null;
    if (typeof e?.openalex_id !== 'string' || typeof e.file !== 'string') {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${location(path, entry.line)} is not a manifest entry with "openalex_id" and "file".`,
        'Give the manifest.jsonl written by `citegeist collect openalex`, or --papers DIR.',
      );
    }
    return e as ManifestEntry;
  });
  const files = new Map(entries.map((e) => [e.openalex_id, join(dirname(path), e.file)]));
  return {
    papers: entries.map((e) => ({ id: e.openalex_id, domain: e.domain })),
    load: async (id) => {
      const file = files.get(id);
      if (!file || !existsSync(file)) return null;
      return (await readDocumentFile(file, id)).map((d) => d.text).join('\n\n');
    },
  };
}

/** The papers of a folder (files named by paper id), all in `domain`. */
function fromDir(dir: string, domain: string, cwd: string): PaperList {
  const source = paperSource({ papers: dir }, cwd);
  const ids = PapersDir.open(dir).ids().sort();
  return { papers: ids.map((id) => ({ id, domain })), load: async (id) => (await source(id))?.text ?? null };
}

/** Every document of a corpus store; a document's own domain wins over --domain. */
function fromCorpus(path: string, domain: string, cwd: string): PaperList {
  const source = paperSource({ corpus: path }, cwd);
  const store = CorpusStore.open(path, { readonly: true });
  try {
    const papers = store.list().map((d) => ({ id: d.id, domain: d.domain ?? domain }));
    return { papers, load: async (id) => (await source(id))?.text ?? null };
  } finally {
    store.close();
  }
}

/**
 * The papers `generate questions` reads: from a `collect openalex` manifest, a corpus file, or a
 * papers folder (the first given, in that order; paths relative to `cwd`). OPTION_REQUIRED when none.
 */
export function paperList(o: {
  manifest?: string | undefined;
  corpus?: string | undefined;
  papers?: string | undefined;
  domain?: string | undefined;
  cwd?: string;
}): PaperList {
  const cwd = o.cwd ?? process.cwd();
  const list = o.manifest
    ? fromManifest(resolve(cwd, o.manifest))
    : o.corpus
      ? fromCorpus(resolve(cwd, o.corpus), o.domain ?? '', cwd)
      : o.papers
        ? fromDir(resolve(cwd, o.papers), o.domain ?? '', cwd)
        : null;
  if (!list)
    throw new CitegeistError(
      'OPTION_REQUIRED',
      'No papers were given.',
      'Add --corpus FILE, --manifest FILE or --papers DIR.',
    );
  return list;
}
