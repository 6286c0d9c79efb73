import { CitegeistError } from '../../core/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { countOption } from '../setup/option-parsers.js';
import {
  DENSE_MODE_OPTION,
  MODES,
  openRetriever,
  parseDenseMode,
  parseMode,
  RECIPES_OPTION,
} from '../setup/retrieval-options.js';

interface SearchFlags {
  mode: string;
  denseMode: string;
  k: number;
  corpus?: string;
  embedder?: string;
  recipes?: string;
  json: boolean;
}

function snippet(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const registerSearch: RegisterCommand = (program, ctx) => {
  program
    .command('search')
    .description('search the indexed corpus and show document, section, page, score and snippet')
    .argument('<query>', 'the question or keywords')
    .option(
      '--mode <mode>',
      `retrieval mode: ${MODES.join(', ')} (auto: the mode measured best for the index's embedder, docs/retrieval.md)`,
      'auto',
    )
    .option('-k <n>', 'results to show', countOption('-k'), 10)
    .option(...CORPUS_OPTION)
    .option('--embedder <spec>', 'embedder (must be the one the index was built with)')
    .option(...RECIPES_OPTION)
    .option(...DENSE_MODE_OPTION)
    .option('--json', 'print JSON', false)
    .action(async (query: string, flags: SearchFlags) => {
      if (flags.k <= 0)
        throw new CitegeistError('BAD_OPTION', `-k must be positive, got ${flags.k}.`, 'Pass e.g. -k 10.');
      const opened = await openRetriever(ctx, {
        mode: parseMode(flags.mode),
        denseMode: parseDenseMode(flags.denseMode),
        corpus: flags.corpus,
        embedder: flags.embedder,
        recipes: flags.recipes,
      });
      if (opened.warning) ctx.io.err(`warning: ${opened.warning}\n`);
      const hits = await opened.retriever.retrieve(query, flags.k);
      const rows = hits.map((h, i) => {
        const p = opened.passages.get(h.id);
        return {
          rank: i + 1,
          id: h.id,
          doc: h.docId,
          title: p?.title ?? '',
          section: p?.sectionPath.join(' > ') ?? (h.id.endsWith('#recipe') ? '(recipe)' : ''),
          page: p?.page ?? null,
          score: h.score,
          snippet: snippet(p?.text ?? opened.recipes?.texts.get(h.docId) ?? ''),
        };
      });
      if (flags.json || ctx.globals().json) {
        ctx.io.out(
          `${JSON.stringify(
            {
              query,
              mode: opened.mode,
              requestedMode: flags.mode,
              retrieval: opened.description,
              retriever: opened.retriever.id,
              embedder: opened.embedderId,
              denseSearch: opened.denseSearch,
              results: rows,
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      ctx.io.out(
        `mode ${opened.mode}${flags.mode === 'auto' ? ' (auto)' : ''}: ${opened.description}; embedder: ${opened.embedderId ?? 'none used'}${opened.denseSearch ? `; dense search: ${opened.denseSearch}` : ''}\n`,
      );
      if (rows.length === 0) ctx.io.out('no results\n');
      for (const r of rows) {
        const where = [r.section || '(no section)', r.page === null ? null : `p. ${r.page}`]
          .filter(Boolean)
          .join(', ');
        ctx.io.out(
          `${String(r.rank).padStart(2)}. ${r.score.toFixed(4)}  ${r.doc}  ${where}\n    ${r.snippet}\n`,
        );
      }
    });
};
