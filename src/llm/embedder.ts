export type EmbedRole = 'query' | 'passage';

/**
 * Turns texts into fixed-length vectors. Query and passage roles exist because many models (E5, BGE)
 * embed them differently (prefixes or instructions). Vectors are L2-normalised when `normalized`.
 */
export interface Embedder {
  /** Identifies the model and its configuration; recorded in every persisted index. */
  readonly id: string;
  readonly dimensions: number;
  readonly normalized: boolean;
  embed(texts: string[], role: EmbedRole): Promise<Float32Array[]>;
}
