import { dirname, resolve } from 'node:path';
import { optionsFromRecipe, writeReport } from '../../report/index.js';
import { type Rebuild, startServer } from '../../server/index.js';
import type { RegisterCommand } from '../context.js';
import { numberOption } from '../setup/option-parsers.js';

/** Rebuilds a report from the recipe it embeds (paths relative to the report's folder). */
export const rebuildReport: Rebuild = async (reportPath, recipe) => {
  await writeReport(optionsFromRecipe(recipe, reportPath), dirname(reportPath));
};

export const registerServe: RegisterCommand = (program, ctx) => {
  program
    .command('serve')
    .description(
      "serve a workspace's reports and outputs on 127.0.0.1 (read-only; a report is rebuilt when its inputs change)",
    )
    .argument('[dir]', 'folder to serve', '.')
    .option(
      '--port <n>',
      'port on 127.0.0.1 (0: any free port)',
      numberOption('--port', { integer: true, min: 0, max: 65535, example: 8080 }),
      8080,
    )
    .action(async (dir: string, opts: { port: number }) => {
      const root = resolve(ctx.io.cwd, dir);
      const server = await startServer({
        root,
        port: opts.port,
        rebuild: rebuildReport,
        log: (line) => ctx.io.err(`${line}\n`),
      });
      ctx.io.out(`Serving ${root} read-only at ${server.url} (127.0.0.1 only). Ctrl-C stops.\n`);
      await new Promise<void>((done) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(done);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
};
