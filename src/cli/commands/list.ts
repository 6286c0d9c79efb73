import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath, openCorpus } from '../corpus-option.js';

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export const registerList: RegisterCommand = (program, ctx) => {
  program
    .command('list')
    .description('list the documents of the corpus (id, source, pages, sections, paragraphs, title)')
    .option(...CORPUS_OPTION)
    .action((options: { corpus?: string }) => {
      const path = corpusPath(ctx, options.corpus);
      const store = openCorpus(path);
      try {
        const docs = store.list();
        if (ctx.globals().json) {
          ctx.io.out(`${JSON.stringify(docs, null, 2)}\n`);
          return;
        }
        const width = Math.max(2, ...docs.map((d) => d.id.length));
        ctx.io.out(`${'id'.padEnd(width)}  source    pages  sections  paragraphs  title\n`);
        for (const d of docs) {
          ctx.io.out(
            `${d.id.padEnd(width)}  ${d.source.padEnd(8)}  ${String(d.pages).padStart(5)}  ${String(d.sections).padStart(8)}  ${String(d.paragraphs).padStart(10)}  ${cut(d.title, 70)}\n`,
          );
        }
        ctx.io.out(`${docs.length} document(s) in ${displayPath(ctx, path)}\n`);
      } finally {
        store.close();
      }
    });
};
