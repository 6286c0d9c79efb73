import { CitegeistError } from '../../core/index.js';
import { DEFAULT_EMBEDDER } from '../../llm/index.js';
import {
  DEFAULT_PASSAGE_TOKENS,
  describeAnn,
  type IndexManifest,
  indexCorpus,
  PARALLEL_MIN_PAPERS,
} from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath, openCorpus } from '../corpus-option.js';
import { createProgress, type Progress } from '../progress.js';
import { countOption } from '../setup/option-parsers.js';
import { indexDirOf } from '../setup/retrieval-options.js';

interface IndexFlags {
  corpus?: string;
  embedder?: string;
  rebuild: boolean;
  maxTokens: number;
  dense: boolean;
  includeReferences: boolean;
  ann: boolean;
  jobs?: number;
}

/** " (84.2 s, 2 worker threads)", from the manifest's build record (absent in older manifests). */
function builtIn(build: { workers: number; ms: { total: number } } | undefined): string {
  if (!build) return '';
  const seconds = `${(build.ms.total / 1000).toFixed(1)} s`;
  return ` (${build.workers > 1 ? `${seconds}, ${build.workers} worker threads` : seconds})`;
}

export const registerIndex: RegisterCommand = (program, ctx) => {
  program
    .command('index')
    .description(
      'chunk the corpus into passages and build the BM25 and dense indexes (stored beside the corpus); papers added, removed or changed since are applied as an update (a new part and tombstones), or by a rebuild past a limit',
    )
    .option(...CORPUS_OPTION)
    .option(
      '--embedder <spec>',
      `embedder for the dense index (default: config "embedder", else ${DEFAULT_EMBEDDER})`,
    )
    .option('--rebuild', 'rebuild even when the index is up to date', false)
    .option(
      '--max-tokens <n>',
      'passage token budget (long paragraphs are split at sentences)',
      countOption('--max-tokens'),
      DEFAULT_PASSAGE_TOKENS,
    )
    .option('--no-dense', 'build only the BM25 index')
    .option('--include-references', 'index bibliography entries too (they are left out otherwise)', false)
    .option(
      '--jobs <n>',
      `worker threads that read, cut, analyse and embed papers (default: one per core, up to 8, from ${PARALLEL_MIN_PAPERS} papers on, else 1; the index is the same for any value)`,
      countOption('--jobs'),
    )
    .option(
      '--ann',
      'also build an HNSW graph of the vectors for approximate dense search, and report its recall@10 against exact search (efSearch raised until it reaches 0.95)',
      false,
    )
    .action(async (flags: IndexFlags) => {
      if (flags.ann && !flags.dense) {
        throw new CitegeistError(
          'CONFLICTING_OPTIONS',
          '--ann builds a graph of the dense vectors, and --no-dense builds none.',
          'Drop one of the two.',
        );
      }
      const path = corpusPath(ctx, flags.corpus);
      const dir = indexDirOf(ctx, flags.corpus);
      const spec = flags.dense ? (flags.embedder ?? ctx.config().embedder ?? DEFAULT_EMBEDDER) : null;
      const store = openCorpus(path);
      try {
        // Emptiness from one row: the digests are read by `indexCorpus` only if the change token
        // does not already show the index current (reading them here cost that check its point).
        if (store.isEmpty()) {
          throw new CitegeistError(
            'CORPUS_EMPTY',
            `The corpus ${displayPath(ctx, path)} has no papers.`,
            'Ingest some first: `citegeist ingest <files>`.',
          );
        }
        let progress: Progress | null = null;
        let progressPass: string | null = null;
        let result: Awaited<ReturnType<typeof indexCorpus>>;
        try {
          result = await indexCorpus(store, dir, {
            maxTokens: flags.maxTokens,
            includeReferences: flags.includeReferences,
            rebuild: flags.rebuild,
            embedder: spec,
            ann: flags.ann,
            env: ctx.io.env,
            ...(flags.jobs !== undefined ? { workers: flags.jobs } : {}),
            onRebuild: (reasons) => ctx.io.err(`rebuilding the index: ${reasons.join('; ')}\n`),
            onUpdate: (reasons) => ctx.io.err(`updating the index: ${reasons.join('; ')}\n`),
            onProgress: (_done, total, pass) => {
              if (pass !== progressPass || !progress) {
                progressPass = pass;
                progress?.stop();
                progress = createProgress({
                  io: ctx.io,
                  label: pass === 'embed' ? 'embedding' : 'indexing',
                  total,
                  unit: 'papers',
                  rate: 'papers',
                  onInterrupt:
                    'The index from before is kept (a new one replaces it only when complete); run the same command again to build it.',
                });
              }
              progress.tick({ ok: true });
            },
          });
        } finally {
          (progress as Progress | null)?.stop();
        }
        const annLine = (m: IndexManifest) => {
          if (m.ann) {
            ctx.io.out(`${describeAnn(m.ann)}\n`);
            if (!m.ann.metTarget)
              ctx.io.err(
                `warning: the ANN graph's recall@10 stays below ${m.ann.target} even at efSearch ${m.ann.efSearch}: dense search with it misses true neighbours (dense mode exact searches exactly)\n`,
              );
          } else if (result.hadAnn)
            ctx.io.out(
              'the ANN graph was dropped (a graph is only built with --ann; an old one would miss new passages): dense search is exact until `citegeist index --ann` builds it again\n',
            );
        };
        if (result.status === 'up-to-date') {
          ctx.io.out(
            `index is up to date (${result.manifest.passages} passages of ${result.papers} papers, content unchanged); use --rebuild to rebuild\n`,
          );
          if (flags.ann) annLine(result.manifest);
          return;
        }
        const { manifest } = result;
        const denseKind = manifest.ann ? 'ann' : 'exact';
        if (result.status === 'updated') {
          ctx.io.out(
            `updated the index in ${displayPath(ctx, dir)}: ${result.appended} paper(s) indexed into a new part, ${result.tombstoned} tombstoned; ${manifest.passages} passages of ${result.papers} papers (BM25 in ${manifest.parts?.length ?? 1} parts${manifest.embedderId ? `, dense ${manifest.embedderId} ${denseKind}` : ''}; --rebuild merges them)\n`,
          );
          annLine(manifest);
          return;
        }
        ctx.io.out(
          `indexed ${manifest.passages} passages of ${result.papers} papers (BM25${manifest.embedderId ? `, dense ${manifest.embedderId} ${denseKind}` : ''}) in ${displayPath(ctx, dir)}${builtIn(manifest.build)}\n`,
        );
        annLine(manifest);
      } finally {
        store.close();
      }
    });
};
