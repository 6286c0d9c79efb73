import type { Embedder, EmbedRole } from '../embedder.js';
import { contentTerms, fnv1a, normalize } from './tokenize.js';

export interface HashedOptions {
  /** Output dimensions (default 256). */
  dimensions?: number;
  /** Character n-gram length inside words (default 4; 0 turns them off). */
  charNgram?: number;
  /** Include word bigrams (default true). */
  bigrams?: boolean;
  seed?: number;
}

/**
 * Feature hashing with a random projection, fitted on nothing: each stemmed word, word bigram and
 * in-word character n-gram is hashed to `projections` signed coordinates (a sparse random
 * projection), weighted by sublinear tf, then L2-normalised. Deterministic, corpus-free.
 */
export class HashedEmbedder implements Embedder {
  readonly normalized = true;
  readonly dimensions: number;
  readonly id: string;
  private readonly charNgram: number;
  private readonly bigrams: boolean;
  private readonly seed: number;

  constructor(options: HashedOptions = {}) {
    this.dimensions = options.dimensions ?? 256;
    this.charNgram = options.charNgram ?? 4;
    this.bigrams = options.bigrams ?? true;
    this.seed = options.seed ?? 1;
    this.id = `hashed-${this.dimensions}-c${this.charNgram}${this.bigrams ? '-b' : ''}`;
  }

  async embed(texts: string[], _role: EmbedRole): Promise<Float32Array[]> {
    return texts.map((t) => this.vector(t));
  }

  private vector(text: string): Float32Array {
    const counts = new Map<string, number>();
    const add = (f: string, w = 1) => counts.set(f, (counts.get(f) ?? 0) + w);
    const words = contentTerms(text);
    for (const [i, w] of words.entries()) {
      add(`w:${w}`);
      if (this.bigrams && i > 0) add(`b:${words[i - 1]} ${w}`, 0.5);
      if (this.charNgram > 0 && w.length > this.charNgram) {
        const padded = `<${w}>`;
        for (let j = 0; j + this.charNgram <= padded.length; j++)
          add(`c:${padded.slice(j, j + this.charNgram)}`, 0.25);
      }
    }
    const v = new Float32Array(this.dimensions);
    for (const [feature, n] of counts) {
      const weight = 1 + Math.log(1 + n);
      for (let p = 0; p < 3; p++) {
        const h = fnv1a(feature, this.seed * 2654435761 + p * 97);
        const idx = h % this.dimensions;
        v[idx] = (v[idx] as number) + ((h >>> 31) & 1 ? weight : -weight);
      }
    }
    return normalize(v);
  }
}
