import { CitegeistError } from '../../core/index.js';
import { DEFAULT_EMBEDDER } from '../../llm/index.js';
import {
  ANN_THRESHOLD,
  DEFAULT_PASSAGE_TOKENS,
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
    .action(async (flags: IndexFlags) => {
      const path = corpusPath(ctx, flags.corpus);
      const dir = indexDirOf(ctx, flags.corpus);
      const spec = flags.dense ? (flags.embedder ?? ctx.config().embedder ?? DEFAULT_EMBEDDER) : null;
      const store = openCorpus(path);
      try {
        const digests = store.digests();
        if (digests.size === 0) {
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
        if (result.status === 'up-to-date') {
          ctx.io.out(
            `index is up to date (${result.manifest.passages} passages of ${digests.size} papers, content unchanged); use --rebuild to rebuild\n`,
          );
          return;
        }
        const { manifest } = result;
        const denseKind = manifest.passages > ANN_THRESHOLD ? 'ann' : 'exact';
        if (result.status === 'updated') {
          ctx.io.out(
            `updated the index in ${displayPath(ctx, dir)}: ${result.appended} paper(s) indexed into a new part, ${result.tombstoned} tombstoned; ${manifest.passages} passages of ${result.papers} papers (BM25 in ${manifest.parts?.length ?? 1} parts${manifest.embedderId ? `, dense ${manifest.embedderId} ${denseKind}` : ''}; --rebuild merges them)\n`,
          );
          return;
        }
        ctx.io.out(
          `indexed ${manifest.passages} passages of ${result.papers} papers (BM25${manifest.embedderId ? `, dense ${manifest.embedderId} ${denseKind}` : ''}) in ${displayPath(ctx, dir)}${builtIn(manifest.build)}\n`,
        );
      } finally {
        store.close();
      }
    });
};
