import type { Embedder, EmbedRole } from '../llm/index.js';

/**
 * A deterministic Embedder for tests: each lowercase word is hashed to a few dimensions (feature
 * hashing), so texts that share words are close in cosine. Records every call.
 */
export class FakeEmbedder implements Embedder {
  readonly id: string;
  readonly normalized = true;
  readonly calls: { texts: string[]; role: EmbedRole }[] = [];

  constructor(
    readonly dimensions = 64,
    id?: string,
  ) {
    this.id = id ?? `fake:hashing-${dimensions}`;
  }

  async embed(texts: string[], role: EmbedRole): Promise<Float32Array[]> {
    this.calls.push({ texts, role });
    return texts.map((t) => this.vector(t));
  }

  private vector(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    for (const word of text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*|\p{N}+/gu) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      const idx = (h >>> 0) % this.dimensions;
      v[idx] = (v[idx] ?? 0) + ((h >>> 31) & 1 ? 1 : -1);
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
    return v;
  }
}
