import { createEmbedder, needsFitting, type ProviderEnv } from '../../llm/index.js';

/** Embeds texts with the embedder a spec names, fitting it on them first when it needs fitting (LSA). */
export function fittedEmbed(spec: string, env: ProviderEnv): (texts: string[]) => Promise<Float32Array[]> {
  return async (texts) => {
    const embedder = createEmbedder(spec, { env });
    if (needsFitting(embedder)) embedder.fit(texts);
    return embedder.embed(texts, 'query');
  };
}
