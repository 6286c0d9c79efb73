import { resolve } from 'node:path';
import { CitegeistError, location, quoteValue } from '../../core/index.js';
import { formatRun, type RankedResult } from '../../formats/index.js';
import { readTextFile, writeFileAtomic } from '../../io/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { createProgress } from '../progress.js';
import { countOption } from '../setup/option-parsers.js';
import {
  DENSE_MODE_OPTION,
  MODES,
  openRetriever,
  parseDenseMode,
  parseMode,
  RECIPES_OPTION,
} from '../setup/retrieval-options.js';

interface RetrieveFlags {
  queries: string;
  mode: string;
  denseMode: string;
  out: string;
  k: number;
  corpus?: string;
  embedder?: string;
  recipes?: string;
  runId?: string;
}

/** Reads `{"id": …, "query": …}` lines (also `query_id`/`qid`/`row_id` and `question`/`text`). */
export function readQueries(path: string): { id: string; query: string }[] {
  const out: { id: string; query: string }[] = [];
  readTextFile(path, 'queries file')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${location(path, i + 1)} is not JSON: ${quoteValue(line)}.`,
          'Write one JSON object per line.',
        );
      }
      const id = row.id ?? row.query_id ?? row.qid ?? row.row_id;
      const query = row.query ?? row.question ?? row.text;
      if ((typeof id !== 'string' && typeof id !== 'number') || typeof query !== 'string') {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${location(path, i + 1, typeof query === 'string' ? 'id' : 'query')} is missing or not a string.`,
          'Each line needs "id" and "query" (or query_id/qid and question/text).',
        );
      }
      out.push({ id: String(id), query });
    });
  return out;
}

export const registerRetrieve: RegisterCommand = (program, ctx) => {
  program
    .command('retrieve')
    .description('run a batch of queries and write a TREC run file')
    .requiredOption('--queries <file>', 'JSONL with "id" and "query" per line')
    .requiredOption('--out <file>', 'TREC run file to write')
    .option(
      '--mode <mode>',
      `retrieval mode: ${MODES.join(', ')} (auto: the mode measured best for the index's embedder)`,
      'auto',
    )
    .option('-k <n>', 'results per query', countOption('-k'), 100)
    .option('--run-id <tag>', 'run tag (default: the mode that ran)')
    .option(...CORPUS_OPTION)
    .option('--embedder <spec>', 'embedder (must be the one the index was built with)')
    .option(...RECIPES_OPTION)
    .option(...DENSE_MODE_OPTION)
    .action(async (flags: RetrieveFlags) => {
      const mode = parseMode(flags.mode);
      const queries = readQueries(resolve(ctx.io.cwd, flags.queries));
      const opened = await openRetriever(ctx, {
        mode,
        denseMode: parseDenseMode(flags.denseMode),
        corpus: flags.corpus,
        embedder: flags.embedder,
        recipes: flags.recipes,
      });
      if (opened.warning) ctx.io.err(`warning: ${opened.warning}\n`);
      const results: RankedResult[] = [];
      const progress = createProgress({ io: ctx.io, label: 'retrieving', total: queries.length });
      try {
        for (const q of queries) {
          for (const h of await opened.retriever.retrieve(q.query, flags.k))
            results.push({ qid: q.id, docno: h.id, score: h.score });
          progress.tick({ ok: true });
        }
      } finally {
        progress.stop();
      }
      writeFileAtomic(resolve(ctx.io.cwd, flags.out), formatRun(results, flags.runId ?? opened.mode));
      ctx.io.out(
        `wrote ${results.length} results for ${queries.length} queries to ${flags.out} (mode ${opened.mode}: ${opened.description}; embedder: ${opened.embedderId ?? 'none used'}${opened.denseSearch ? `; dense search: ${opened.denseSearch}` : ''})\n`,
      );
    });
};
