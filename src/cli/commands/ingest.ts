import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { CorpusStore, type IngestOutcome, ingestPaths } from '../../store/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath } from '../corpus-option.js';

/**
 * A progress bar on stderr that redraws in place on a terminal; when stderr is not a terminal
 * (CI, a pipe) nothing is redrawn and only failures are printed as they happen.
 */
function progress(ctx: CliContext) {
  if (!ctx.io.interactive) {
    return {
      update(_done: number, _total: number, outcome: IngestOutcome | undefined) {
        if (outcome?.status === 'failed') ctx.io.err(`failed: ${outcome.problem}\n`);
      },
      stop() {},
    };
  }
  const stream = {
    isTTY: true,
    columns: 100,
    write: (s: string) => {
      ctx.io.err(s);
      return true;
    },
  };
  const bar = new SingleBar({
    stream: stream as unknown as NodeJS.WritableStream,
    format: 'ingest [{bar}] {value}/{total} files | {file}',
    hideCursor: true,
    clearOnComplete: true,
  });
  let started = false;
  return {
    update(done: number, total: number, outcome: IngestOutcome | undefined) {
      if (!started) {
        bar.start(total, 0, { file: '' });
        started = true;
      }
      bar.update(done, { file: outcome?.file ?? '' });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function formatOutcome(o: IngestOutcome): string {
  if (o.status === 'failed')
    return `  FAILED     ${o.file}: [${o.code}] ${o.problem}\n             fix: ${o.fix}\n`;
  const ids =
    o.ids.length > 3 ? `${o.ids.slice(0, 3).join(', ')} … (${o.ids.length} documents)` : o.ids.join(', ');
  const label = o.status === 'unchanged' ? 'unchanged' : o.replaced ? 'replaced' : 'ingested';
  return `  ${label.padEnd(10)} ${o.file} → ${ids}\n`;
}

export const registerIngest: RegisterCommand = (program, ctx) => {
  program
    .command('ingest')
    .description('extract papers (PDF, JATS, TEI, Markdown, text, QASPER or S2ORC JSON) into the corpus')
    .argument('<paths...>', 'files or folders (folders are searched recursively)')
    .option(...CORPUS_OPTION)
    .action(async (paths: string[], options: { corpus?: string }) => {
      const path = corpusPath(ctx, options.corpus);
      const store = CorpusStore.open(path);
      const bar = progress(ctx);
      try {
        const summary = await ingestPaths(
          store,
          paths.map((p) => resolve(ctx.io.cwd, p)),
          (done, total, outcome) => bar.update(done, total, outcome),
        );
        bar.stop();
        const outcomes = summary.outcomes.map((o) => ({ ...o, file: displayPath(ctx, o.file) }));
        if (ctx.globals().json) {
          ctx.io.out(`${JSON.stringify({ corpus: path, ...summary, outcomes }, null, 2)}\n`);
        } else {
          for (const o of outcomes) ctx.io.out(formatOutcome(o));
          ctx.io.out(
            `ingested ${summary.ingested}, unchanged ${summary.unchanged}, failed ${summary.failed} (corpus ${displayPath(ctx, path)})\n`,
          );
        }
        if (summary.failed > 0) ctx.setExitCode(1);
      } finally {
        bar.stop();
        store.close();
      }
    });
};
