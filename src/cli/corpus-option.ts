import { resolve } from 'node:path';
import { defaultCorpusPath } from '../store/index.js';

export { openCorpus, requireCorpus } from '../store/index.js';

import type { CliContext } from './context.js';

export const CORPUS_OPTION = [
  '--corpus <file>',
  'corpus file (default: .citegeist/corpus.sqlite in the current folder)',
] as const;

/** The corpus file: `--corpus`, else `corpus` in the config file, else the workspace default. */
export function corpusPath(ctx: CliContext, flag: string | undefined): string {
  const configured = flag ?? ctx.config().corpus;
  return configured ? resolve(ctx.io.cwd, configured) : defaultCorpusPath(ctx.io.cwd);
}

/** Shortens an absolute path under the working folder for display. */
export function displayPath(ctx: CliContext, path: string): string {
  const cwd = ctx.io.cwd.endsWith('/') ? ctx.io.cwd : `${ctx.io.cwd}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
