import { CitegeistError } from '../../core/index.js';
import {
  createEmbedder,
  type Embedder,
  LsaEmbedder,
  type LsaModelJson,
  needsFitting,
  type ProviderEnv,
} from '../../llm/index.js';
import type { SavedIndex } from './index-dir.js';

/**
 * The embedder an index was built with, restored (a corpus-fitted model is read from the index):
 * what queries are embedded with, and what an update embeds the papers it adds with.
 */
export function restoreEmbedder(
  saved: Pick<SavedIndex, 'manifest' | 'embedderModel'>,
  requested: string | undefined,
  env: ProviderEnv,
): Embedder {
  const spec = requested ?? saved.manifest.embedderSpec;
  if (!spec) {
    throw new CitegeistError(
      'INDEX_NO_VECTORS',
      'The index was built without an embedder.',
      'Rebuild it with `citegeist index --rebuild --embedder <spec>`.',
    );
  }
  return embedderWithModel(spec, spec === saved.manifest.embedderSpec ? saved.embedderModel : null, env);
}

/** The embedder of `spec`, a corpus-fitted one (LSA) restored from its saved `model` when given. */
export function embedderWithModel(spec: string, model: unknown | null, env: ProviderEnv = {}): Embedder {
  const embedder = createEmbedder(spec, { env });
  if (needsFitting(embedder) && model && embedder instanceof LsaEmbedder) {
    return LsaEmbedder.fromJSON(model as LsaModelJson);
  }
  return embedder;
}
