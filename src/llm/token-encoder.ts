/**
 * Contextual token vectors for token-level metrics (BERTScore): an encoder returns, per text, every
 * position of the encoded sequence — special tokens included — with its token id and vector.
 * Implementations: a local transformers.js model folder (`TransformersTokenEncoder`), or any object
 * with this shape (tests inject fixed vectors).
 */
export interface EncodedText {
  /** Token ids (or token strings) per position: what idf counts. */
  tokens: readonly (number | string)[];
  /** Positions holding the tokenizer's CLS or SEP token (BERTScore weighs them 0 without idf). */
  special: readonly boolean[];
  /** One contextual vector per position. */
  vectors: readonly ArrayLike<number>[];
}

export interface TokenEncoder {
  /** Recorded with the scores, e.g. "transformers:roberta-large@L17". */
  readonly id: string;
  encode(texts: readonly string[], signal?: AbortSignal): Promise<EncodedText[]>;
}
