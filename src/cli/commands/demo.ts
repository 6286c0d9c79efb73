import type { RegisterCommand } from '../context.js';

export const registerDemo: RegisterCommand = (program, ctx) => {
  program
    .command('demo')
    .description(
      'run the main pipeline on the bundled sample papers with embedded defaults (no keys, no network)',
    )
    .option('--out <dir>', 'output folder', 'demo-output')
    .action(() => {
      ctx.io.out('citegeist demo: the pipeline stages are being built; nothing to run yet.\n');
    });
};
