import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { PaperSourceOptions } from '../../store/index.js';
import type { CliContext } from '../context.js';
import { corpusPath } from '../corpus-option.js';

/** Adds `--papers DIR` and `--corpus FILE`, the two sources `paperSource` reads. */
export function addPaperSourceOptions(command: Command): Command {
  return command
    .option('--papers <dir>', 'paper files named <paper_id>.pdf|.txt|.md')
    .option(
      '--corpus <file>',
      'corpus store with the papers (default without --papers: "corpus" in the config file, else .citegeist/corpus.sqlite when it exists)',
    );
}

/**
 * The paper source of a command: the flags when one is given, else the configured corpus, else the
 * workspace's default corpus when it exists (what `citegeist ingest` writes); else none, and
 * `paperSource` says what to add.
 */
export function paperSourceOf(ctx: CliContext, flags: PaperSourceOptions): PaperSourceOptions {
  if (flags.papers || flags.corpus) return flags;
  const path = corpusPath(ctx, undefined);
  // A configured corpus is used even when missing (opening it says so); the default only if it exists.
  return ctx.config().corpus || existsSync(path) ? { corpus: path } : {};
}
