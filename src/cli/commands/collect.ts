import { resolve } from 'node:path';
import { collectOpenAlex, DOMAIN_PRESETS, pdfPageCount } from '../../generate/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { countOption, numberOption } from '../setup/option-parsers.js';

interface CollectCliOptions {
  domain: string[];
  perDomain: number;
  out: string;
  mailto?: string;
  from: string;
  minCitations: number;
  baseUrl?: string;
  maxPages: number;
}

export const registerCollect: RegisterCommand = (program, ctx) => {
  const collect = program.command('collect').description('collect open-access papers for a corpus');
  collect
    .command('openalex')
    .description('download the most-cited open-access PDFs per domain from OpenAlex (METHODS §2.1)')
    .requiredOption(
      '--domain <name|query...>',
      `domain preset (${DOMAIN_PRESETS.map((d) => d.name).join(', ')}) or a search query; repeatable`,
    )
    .option('--per-domain <n>', 'papers per domain', countOption('--per-domain'), 50)
    .requiredOption(
      '--out <dir>',
      'output folder (manifest.jsonl and <domain>/pdf/*.pdf; resumed if it exists)',
    )
    .option('--mailto <address>', "your e-mail for OpenAlex's polite pool (or OPENALEX_MAILTO)")
    .option('--from <date>', 'from_publication_date', '2018-01-01')
    .option(
      '--min-citations <n>',
      'keep works with cited_by_count > n',
      numberOption('--min-citations', { integer: true, min: 0 }),
      10,
    )
    .option('--max-pages <n>', 'result pages of 25 to read per domain', countOption('--max-pages'), 10)
    .option('--base-url <url>', 'OpenAlex API base URL', 'https://api.openalex.org')
    .action(async (opts: CollectCliOptions) => {
      const perDomain = opts.perDomain;
      const mailto = opts.mailto ?? ctx.io.env.OPENALEX_MAILTO;
      if (!mailto)
        ctx.io.err('note: no --mailto given; OpenAlex serves polite-pool users faster and more reliably.\n');
      const summaries = [];
      for (const domain of opts.domain) {
        const result = await collectOpenAlex({
          domain,
          perDomain,
          outDir: resolve(ctx.io.cwd, opts.out),
          ...(mailto ? { mailto } : {}),
          from: opts.from,
          minCitations: opts.minCitations,
          maxPages: opts.maxPages,
          ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
          countPages: pdfPageCount,
          version: VERSION,
          onEvent: (e) => {
            if (e.kind === 'collected')
              ctx.io.err(
                `  + ${e.entry.openalex_id} (${e.entry.page_count} pp.) ${e.entry.title.slice(0, 70)}\n`,
              );
            else if (e.kind === 'skipped' && e.reason !== 'already-collected')
              ctx.io.err(`  - ${e.openalexId}: ${e.reason}${e.detail ? ` (${e.detail})` : ''}\n`);
          },
        });
        summaries.push(result);
        const skipped = Object.entries(result.skipped)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ');
        if (!ctx.globals().json) {
          ctx.io.out(
            `${result.domain.name}: ${result.collected} collected, ${result.kept} kept from an earlier run, ${result.pagesRead} page(s) read${skipped ? `; skipped: ${skipped}` : ''}\n`,
          );
        }
        if (result.error) {
          ctx.io.err(`error: ${result.error}\n`);
          ctx.setExitCode(1);
        }
      }
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(summaries, null, 2)}\n`);
    });
};
