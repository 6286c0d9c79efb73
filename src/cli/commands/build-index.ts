import { CitegeistError } from '../../core/index.js';
import { createEmbedder, DEFAULT_EMBEDDER } from '../../llm/index.js';
import {
  ANN_THRESHOLD,
  describeStaleness,
  type IndexedDocument,
  indexExists,
  indexStaleness,
  readManifest,
  writeIndex,
} from '../../retrieve/index.js';
import { CorpusStore } from '../../store/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath } from '../corpus-option.js';
import { createProgress, type Progress } from '../progress.js';
import { indexDirOf } from '../retrieval-setup.js';
import { countOption } from './option-parsers.js';

interface IndexFlags {
  corpus?: string;
  embedder?: string;
  rebuild: boolean;
  maxTokens: number;
  dense: boolean;
  includeReferences: boolean;
}

export const registerIndex: RegisterCommand = (program, ctx) => {
  program
    .command('index')
    .description(
      'chunk the corpus into passages and build the BM25 and dense indexes (stored beside the corpus); rebuilds when a paper was added, removed or changed',
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
      256,
    )
    .option('--no-dense', 'build only the BM25 index')
    .option('--include-references', 'index bibliography entries too (they are left out otherwise)', false)
    .action(async (flags: IndexFlags) => {
      const path = corpusPath(ctx, flags.corpus);
      const dir = indexDirOf(ctx, flags.corpus);
      const spec = flags.dense ? (flags.embedder ?? ctx.config().embedder ?? DEFAULT_EMBEDDER) : null;
      const store = CorpusStore.open(path, { readonly: true });
      try {
        const digests = store.digests();
        if (digests.size === 0) {
          throw new CitegeistError(
            'CORPUS_EMPTY',
            `The corpus ${displayPath(ctx, path)} has no papers.`,
            'Ingest some first: `citegeist ingest <files>`.',
          );
        }
        if (!flags.rebuild && indexExists(dir)) {
          const m = readManifest(dir);
          const stale = indexStaleness(m, digests);
          const settings = [
            m.embedderSpec !== spec ? `embedder ${m.embedderSpec ?? 'none'} → ${spec ?? 'none'}` : '',
            m.maxTokens !== flags.maxTokens ? `--max-tokens ${m.maxTokens} → ${flags.maxTokens}` : '',
            // Indexes from before this setting kept every paragraph, references included.
            (m.includeReferences ?? true) !== flags.includeReferences
              ? `references ${m.includeReferences ? 'kept' : 'left out'} → ${flags.includeReferences ? 'kept' : 'left out'}`
              : '',
          ].filter(Boolean);
          if (!stale && settings.length === 0) {
            ctx.io.out(
              `index is up to date (${m.passages} passages of ${digests.size} papers, content unchanged); use --rebuild to rebuild\n`,
            );
            return;
          }
          ctx.io.err(
            `rebuilding the index: ${[stale ? describeStaleness(stale) : '', ...settings].filter(Boolean).join('; ')}\n`,
          );
        }
        // Streamed from the corpus one paper at a time: memory does not grow with the corpus.
        function* documents(): Generator<IndexedDocument> {
          for (const [id, digest] of digests) {
            const document = store.get(id);
            if (document) yield { document, digest };
          }
        }
        let progress: Progress | null = null;
        let manifest: Awaited<ReturnType<typeof writeIndex>>;
        try {
          manifest = await writeIndex(dir, documents, {
            maxTokens: flags.maxTokens,
            includeReferences: flags.includeReferences,
            embedder: spec ? { spec, embedder: createEmbedder(spec, { env: ctx.io.env }) } : null,
            version: VERSION,
            total: digests.size,
            onProgress: (done, total, pass) => {
              if (done === 1 || !progress) {
                progress?.stop();
                progress = createProgress({
                  io: ctx.io,
                  label: pass === 'embed' ? 'embedding' : 'indexing',
                  total,
                });
              }
              progress.tick({ ok: true });
            },
          });
        } finally {
          (progress as Progress | null)?.stop();
        }
        const kind = manifest.passages > ANN_THRESHOLD ? 'ann' : 'exact';
        ctx.io.out(
          `indexed ${manifest.passages} passages of ${manifest.documents.length} papers (BM25${manifest.embedderId ? `, dense ${manifest.embedderId} ${kind}` : ''}) in ${displayPath(ctx, dir)}\n`,
        );
      } finally {
        store.close();
      }
    });
};
