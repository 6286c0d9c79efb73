import { resolve } from 'node:path';
import { parseRun } from '../formats/index.js';
import { readTextFile } from '../io/index.js';
import {
  assertIndexFresh,
  type IndexManifest,
  loadIndex,
  type PassageTable,
  RunRetriever,
  resolveRun,
} from '../retrieve/index.js';
import type { CliContext } from './context.js';
import { corpusPath, displayPath, openCorpus } from './corpus-option.js';
import { indexDirOf } from './setup/retrieval-options.js';

export const RETRIEVED_OPTION = [
  '--retrieved <run>',
  'a TREC run from any engine (passage or paper ids; topics = request or row ids) used as the retrieval instead of citegeist’s',
] as const;

export interface RetrievedRun {
  retriever: RunRetriever;
  /** The index's passages, to show and cite what the run names. */
  passages: PassageTable;
  /** How it is recorded in run manifests. */
  description: string;
  /** The manifest of the index the ids were resolved against. */
  manifest: IndexManifest;
}

/**
 * Reads another engine's TREC run and resolves its ids against the corpus's index (refusing
 * unknown ids: `RUN_UNKNOWN_IDS`, and an index that no longer matches the corpus: `INDEX_STALE`).
 * `topicOf` names the run topic of a query text (reports: the request whose text it is).
 */
export function openRetrievedRun(
  ctx: CliContext,
  runFile: string,
  corpusFlag: string | undefined,
  topicOf: (query: string) => string | undefined = () => undefined,
): RetrievedRun {
  const dir = indexDirOf(ctx, corpusFlag);
  const saved = loadIndex(dir);
  const store = openCorpus(corpusPath(ctx, corpusFlag));
  try {
    assertIndexFresh(dir, saved.manifest, store);
  } finally {
    store.close();
  }
  const path = resolve(ctx.io.cwd, runFile);
  const shown = displayPath(ctx, path);
  const run = parseRun(readTextFile(path, 'run file'), shown);
  const ranked = resolveRun(run, shown, saved.passages);
  return {
    retriever: new RunRetriever(ranked, run.runId, topicOf),
    passages: saved.passages,
    manifest: saved.manifest,
    description: `TREC run ${shown} (run id ${run.runId || 'none'}, ${ranked.size} topics)`,
  };
}
