import { existsSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_MAX_PDF_PAGES } from '../../ingest/index.js';
import { CorpusStore, findIngestFiles, type IngestOutcome, ingestPaths } from '../../store/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath } from '../corpus-option.js';
import { atInterrupt } from '../interrupt.js';
import { createLazyProgress } from '../progress.js';
import { parseIntOption } from '../setup/option-parsers.js';

/** From this many files on, `ingest` parses on one worker thread per core unless --jobs says otherwise. */
const AUTO_JOBS_FROM = 16;

function formatOutcome(o: IngestOutcome): string {
  if (o.status === 'failed')
    return `  FAILED     ${o.file}: [${o.code}] ${o.problem}\n             fix: ${o.fix}\n`;
  const ids =
    o.ids.length > 3 ? `${o.ids.slice(0, 3).join(', ')} … (${o.ids.length} documents)` : o.ids.join(', ');
  const label = o.status === 'unchanged' ? 'unchanged' : o.replaced ? 'replaced' : 'ingested';
  const damaged =
    o.status === 'ingested' && o.damaged
      ? `             DAMAGED: ${o.damaged}; stored with what could be read (meta.damaged)\n`
      : '';
  return `  ${label.padEnd(10)} ${o.file} → ${ids}\n${damaged}`;
}

export const registerIngest: RegisterCommand = (program, ctx) => {
  program
    .command('ingest')
    .description('extract papers (PDF, JATS, TEI, Markdown, text, QASPER or S2ORC JSON) into the corpus')
    .argument('<paths...>', 'files or folders (folders are searched recursively)')
    .option(...CORPUS_OPTION)
    .option('--allow-empty', 'succeed when the paths hold no file to ingest (an empty folder)')
    .option(
      '--jobs <n>',
      `files parsed at once on worker threads (default: one per core from ${AUTO_JOBS_FROM} files on, else 1; the corpus is the same for any value)`,
      parseIntOption('--jobs', 1),
    )
    .option(
      '--max-pdf-pages <n>',
      'refuse a PDF with more pages than this (INGEST_PDF_TOO_LONG)',
      parseIntOption('--max-pdf-pages', 1),
      DEFAULT_MAX_PDF_PAGES,
    )
    .action(
      async (
        paths: string[],
        options: { corpus?: string; allowEmpty?: boolean; maxPdfPages: number; jobs?: number },
      ) => {
        const path = corpusPath(ctx, options.corpus);
        const found = await findIngestFiles(
          paths.map((p) => resolve(ctx.io.cwd, p)),
          options.allowEmpty ? { allowEmpty: true } : {},
        );
        const existed = existsSync(path);
        const store = CorpusStore.open(path);
        const bar = createLazyProgress({ io: ctx.io, label: 'ingest', unit: 'files', rate: 'files' });
        const jobs = options.jobs ?? (found.files.length >= AUTO_JOBS_FROM ? availableParallelism() : 1);
        const started = performance.now();
        const perSecond = (done: number) => done / Math.max((performance.now() - started) / 1000, 1e-3);
        // Per-file lines are printed as files finish, so an interrupted ingest still shows what it
        // stored; under a live bar (stderr a terminal) they wait for the bar to end, or the interrupt.
        const json = ctx.globals().json;
        const pending: IngestOutcome[] = [];
        const printed = new Set<IngestOutcome>();
        const print = (o: IngestOutcome) => {
          printed.add(o);
          ctx.io.out(formatOutcome({ ...o, file: displayPath(ctx, o.file) }));
        };
        const flush = () => pending.splice(0).forEach(print);
        // Nothing ingested into a corpus this command created (only missing or failed files, or an
        // interrupt before the first): leave no empty corpus behind. Checked while open: another
        // ingest that wrote to it keeps it.
        const closeStore = () => {
          const empty = !existed && store.isEmpty();
          store.close();
          if (empty) for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
        };
        const stopFinalizer = atInterrupt(() => {
          bar.stop();
          if (!json) flush();
          closeStore();
        });
        try {
          const summary = await ingestPaths(
            store,
            found,
            (done, total, outcome) => {
              if (!outcome) return;
              if (!json) {
                pending.push(outcome);
                if (!ctx.io.interactive) flush();
              }
              bar.tick(
                {
                  ok: outcome.status !== 'failed',
                  note: `${displayPath(ctx, outcome.file)} · ${perSecond(done).toFixed(1)} papers/s`,
                  // a failure's problem and fix are printed once, in the list below the bar
                },
                total,
              );
            },
            { maxPdfPages: options.maxPdfPages, jobs },
          );
          const seconds = (performance.now() - started) / 1000;
          const files = summary.outcomes.length;
          bar.stop();
          if (json) {
            const outcomes = summary.outcomes.map((o) => ({ ...o, file: displayPath(ctx, o.file) }));
            ctx.io.out(`${JSON.stringify({ corpus: path, ...summary, outcomes }, null, 2)}\n`);
          } else {
            flush();
            // Paths that do not exist have no progress event: their lines come last.
            for (const o of summary.outcomes) if (!printed.has(o)) print(o);
            ctx.io.out(
              `ingested ${summary.ingested}${summary.damaged > 0 ? ` (${summary.damaged} damaged)` : ''}, unchanged ${summary.unchanged}, failed ${summary.failed} (corpus ${displayPath(ctx, path)}); ${files} files in ${seconds.toFixed(1)} s, ${perSecond(files).toFixed(1)} papers/s, ${jobs} job${jobs === 1 ? '' : 's'}\n`,
            );
          }
          if (summary.failed > 0) ctx.setExitCode(1);
        } finally {
          stopFinalizer();
          bar.stop();
          closeStore();
        }
      },
    );
};
