import { CitegeistError } from '../../core/index.js';
import {
  createEmbedder,
  DEFAULT_EMBEDDER,
  type Embedder,
  LsaEmbedder,
  needsFitting,
} from '../../llm/index.js';
import {
  Bm25Index,
  chunkDocument,
  DenseIndex,
  indexExists,
  type Passage,
  readManifest,
  saveIndex,
} from '../../retrieve/index.js';
import { CorpusStore } from '../../store/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath } from '../corpus-option.js';
import { createProgress } from '../progress.js';
import { indexDirOf } from '../retrieval-setup.js';
import { parseIntOption } from './option-parsers.js';

interface IndexFlags {
  corpus?: string;
  embedder?: string;
  rebuild: boolean;
  maxTokens: number;
  dense: boolean;
  includeReferences: boolean;
}

const BATCH = 256;

export const registerIndex: RegisterCommand = (program, ctx) => {
  program
    .command('index')
    .description(
      'chunk the corpus into passages and build the BM25 and dense indexes (stored beside the corpus)',
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
      parseIntOption('--max-tokens'),
      256,
    )
    .option('--no-dense', 'build only the BM25 index')
    .option('--include-references', 'index bibliography entries too (left out by default)', false)
    .action(async (flags: IndexFlags) => {
      const path = corpusPath(ctx, flags.corpus);
      const dir = indexDirOf(ctx, flags.corpus);
      const spec = flags.dense ? (flags.embedder ?? ctx.config().embedder ?? DEFAULT_EMBEDDER) : null;
      const store = CorpusStore.open(path, { readonly: true });
      try {
        const ids = store.ids();
        if (ids.length === 0) {
          throw new CitegeistError(
            'CORPUS_EMPTY',
            `The corpus ${displayPath(ctx, path)} has no papers.`,
            'Ingest some first: `citegeist ingest <files>`.',
          );
        }
        if (!flags.rebuild && indexExists(dir)) {
          const m = readManifest(dir);
          if (
            m.embedderSpec === spec &&
            m.maxTokens === flags.maxTokens &&
            (m.includeReferences ?? false) === flags.includeReferences &&
            m.documents.join('\n') === ids.join('\n')
          ) {
            ctx.io.out(
              `index is up to date (${m.passages} passages of ${ids.length} papers); use --rebuild to rebuild\n`,
            );
            return;
          }
        }
        const passages: Passage[] = [];
        for (const id of ids) {
          const doc = store.get(id);
          if (doc)
            passages.push(
              ...chunkDocument(doc, {
                maxTokens: flags.maxTokens,
                includeReferences: flags.includeReferences,
              }),
            );
        }
        const indexed = passages.map((p) => ({ id: p.id, text: p.indexText ?? p.text }));
        const bm25 = Bm25Index.build(indexed);
        let dense: DenseIndex | null = null;
        let embedder: Embedder | null = null;
        if (spec) {
          embedder = createEmbedder(spec, { env: ctx.io.env });
          if (needsFitting(embedder)) embedder.fit(indexed.map((p) => p.text));
          dense = await embedAll(embedder, indexed);
        }
        saveIndex(dir, {
          manifest: {
            format: 1,
            createdAt: new Date().toISOString(),
            documents: ids,
            passages: passages.length,
            maxTokens: flags.maxTokens,
            includeReferences: flags.includeReferences,
            embedderSpec: spec,
            embedderId: embedder?.id ?? null,
            dimensions: embedder?.dimensions ?? null,
          },
          passages: passages.map(({ indexText: _, ...p }) => p),
          bm25,
          dense,
          embedderModel: embedder instanceof LsaEmbedder ? embedder.toJSON() : null,
        });
        ctx.io.out(
          `indexed ${passages.length} passages of ${ids.length} papers (BM25${embedder ? `, dense ${embedder.id} ${dense?.kind}` : ''}) in ${displayPath(ctx, dir)}\n`,
        );
      } finally {
        store.close();
      }
    });

  async function embedAll(
    embedder: Embedder,
    passages: readonly { id: string; text: string }[],
  ): Promise<DenseIndex> {
    const progress = createProgress({
      io: ctx.io,
      label: 'embedding',
      total: Math.ceil(passages.length / BATCH),
    });
    const vectors: Float32Array[] = [];
    try {
      for (let i = 0; i < passages.length; i += BATCH) {
        vectors.push(
          ...(await embedder.embed(
            passages.slice(i, i + BATCH).map((p) => p.text),
            'passage',
          )),
        );
        progress.tick({ ok: true });
      }
    } finally {
      progress.stop();
    }
    return DenseIndex.fromVectors(
      embedder.id,
      passages.map((p) => p.id),
      vectors,
    );
  }
};
