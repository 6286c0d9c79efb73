/**
 * BERTScore as the `bert_score` package computes it (Tiiiger/bert_score, bert_score/score.py and
 * utils.py at commit cb582ed5): pure functions over contextual token vectors, so any encoder — a local
 * transformers.js model (see llm/embedders/transformers-tokens.ts) or a test's injected vectors —
 * can supply them.
 *
 * - Greedy matching (`greedy_cos_idf`): vectors are L2-normalised; each candidate token takes its
 *   best cosine over all reference tokens (precision), each reference token its best over the
 *   candidate tokens (recall); special tokens ([CLS]/[SEP], <s>/</s>) take part in the matching.
 * - Weights: without idf every token weighs 1 except the tokenizer's CLS and SEP tokens, which weigh
 *   0 (`idf_dict[sep] = idf_dict[cls] = 0`); with idf, `get_idf_dict(refs)`: idf(t) =
 *   ln((M + 1) / (df(t) + 1)) over the M references' token-id sets (special tokens included, so
 *   they get ln 1 = 0), and ln(M + 1) for a token no reference has. Weights are divided by their
 *   sum per text; P and R are weighted sums, F = 2PR / (P + R).
 * - A text encoded as exactly 2 tokens (an empty text: CLS + SEP) sets P and R to 0 (its F is
 *   computed before and is NaN → 0); F NaN → 0. P or R of a text whose weights are all 0 stays
 *   NaN in the package: returned here as null.
 * - Several references per candidate: the element-wise maximum of P, R and F over them (so P, R
 *   and F may come from different references), NaN winning as in torch.max. Idf is computed over
 *   the flattened reference list, duplicates included.
 * - Baseline rescaling: (x − b) / (1 − b) per P, R, F, with b from the baseline file's row at the
 *   layer index (`pd.read_csv(path).iloc[num_layers][1:]`, read as float32).
 *
 * Not reproduced: bert_score pads batches and takes each token's maximum over padded positions
 * too (similarity 0), so a token whose similarities are all negative scores 0 there when its
 * partner is shorter than the longest text of the batch; here the maximum is over real tokens.
 */

import { CitegeistError } from '../../core/index.js';
import type { EncodedText } from '../../llm/index.js';

export type { EncodedText, TokenEncoder } from '../../llm/index.js';

export interface BertScore {
  /** null where the package's value is NaN (every token of the text weighs 0). */
  precision: number | null;
  recall: number | null;
  f1: number;
}

/** Inverse document frequencies over references, with the package's default for unseen tokens. */
export interface IdfTable {
  references: number;
  weight(token: number | string): number;
}

export interface BertScoreOptions {
  /** true: idf from the references of this call; a table: that table; false/absent: weights 1. */
  idf?: boolean | IdfTable;
  /** Baseline P, R, F for rescaling (`rescale_with_baseline`). */
  baseline?: BaselineValues;
}

export interface BaselineValues {
  precision: number;
  recall: number;
  f1: number;
}

/** `get_idf_dict(refs)`: idf(t) = ln((M+1)/(df+1)); unseen tokens ln(M+1). */
export function idfFromReferences(references: readonly EncodedText[]): IdfTable {
  const df = new Map<number | string, number>();
  for (const ref of references) for (const t of new Set(ref.tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  const m = references.length;
  return {
    references: m,
    weight: (token) => Math.log((m + 1) / ((df.get(token) ?? 0) + 1)),
  };
}

/** One text prepared for matching: unit vectors and normalised weights. */
interface Prepared {
  length: number;
  dims: number;
  unit: Float64Array;
  weights: Float64Array;
}

function prepare(text: EncodedText, idf: IdfTable | null): Prepared {
  const n = text.tokens.length;
  if (text.vectors.length !== n || text.special.length !== n) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `an encoded text has ${n} tokens, ${text.vectors.length} vectors and ${text.special.length} special flags.`,
      'Pass encoded texts with one vector and one special flag per token.',
    );
  }
  const dims = n > 0 ? text.vectors[0]!.length : 0;
  const unit = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const v = text.vectors[i]!;
    if (v.length !== dims)
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `token vectors of one text differ in length (${v.length} vs ${dims}).`,
        'Encode every token of a text with the same model layer.',
      );
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) unit[i * dims + d] = v[d]! / norm;
  }
  const raw = text.tokens.map((t, i) => (idf ? idf.weight(t) : text.special[i] ? 0 : 1));
  const sum = raw.reduce((s, w) => s + w, 0);
  return { length: n, dims, unit, weights: Float64Array.from(raw, (w) => w / sum) };
}

/** `greedy_cos_idf` for one (candidate, reference) pair: P, R, F before any rescaling (NaN kept). */
function greedyPair(hyp: Prepared, ref: Prepared): [number, number, number] {
  if (hyp.length > 0 && ref.length > 0 && hyp.dims !== ref.dims) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `candidate vectors are ${hyp.dims}-d, reference vectors ${ref.dims}-d.`,
      'Encode candidates and references with the same model.',
    );
  }
  // Degenerate input (the package always encodes at least CLS + SEP): nothing to match.
  if (hyp.length === 0 || ref.length === 0) return [0, 0, 0];
  const d = hyp.dims;
  const bestRef = new Float64Array(ref.length).fill(Number.NEGATIVE_INFINITY);
  let p = 0;
  for (let i = 0; i < hyp.length; i++) {
    let best = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < ref.length; j++) {
      let sim = 0;
      for (let k = 0; k < d; k++) sim += hyp.unit[i * d + k]! * ref.unit[j * d + k]!;
      // Math.max lets NaN win, as torch.max does (a zero vector normalises to NaN).
      best = Math.max(best, sim);
      bestRef[j] = Math.max(bestRef[j]!, sim);
    }
    p += best * hyp.weights[i]!;
  }
  let r = 0;
  for (let j = 0; j < ref.length; j++) r += bestRef[j]! * ref.weights[j]!;
  // F from the unmasked P and R, then NaN → 0 (`F.masked_fill(torch.isnan(F), 0.0)`).
  const f = (2 * p * r) / (p + r);
  const f1 = Number.isNaN(f) ? 0 : f;
  // The package's "empty sentence" masks: a text of exactly 2 positions (CLS + SEP).
  if (hyp.length === 2 || ref.length === 2) return [0, 0, f1];
  return [p, r, f1];
}

/**
 * BERTScore of each candidate against its references (`bert_score.score(cands, refs)`, refs a list
 * of lists). A candidate with no references gets null.
 */
export function bertScore(
  candidates: readonly EncodedText[],
  references: readonly (readonly EncodedText[])[],
  options: BertScoreOptions = {},
): (BertScore | null)[] {
  if (candidates.length !== references.length) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `${candidates.length} candidates but ${references.length} reference lists.`,
      'Pass one list of references per candidate.',
    );
  }
  const idf = options.idf === true ? idfFromReferences(references.flat()) : options.idf ? options.idf : null;
  return candidates.map((candidate, i) => {
    const refs = references[i]!;
    if (refs.length === 0) return null;
    const hyp = prepare(candidate, idf);
    const pairs = refs.map((ref) => greedyPair(hyp, prepare(ref, idf)));
    let prf: number[] = [0, 1, 2].map((k) =>
      pairs.reduce((m, x) => Math.max(m, x[k]!), Number.NEGATIVE_INFINITY),
    );
    if (options.baseline) prf = rescaleWithBaseline(prf as [number, number, number], options.baseline);
    const nullable = (x: number) => (Number.isNaN(x) ? null : x);
    return { precision: nullable(prf[0]!), recall: nullable(prf[1]!), f1: prf[2]! };
  });
}

/**
 * bert_score's baseline rescaling, (x − b) / (1 − b) for P, R and F, with the baseline read as
 * float32 (`torch.from_numpy(...).float()`); the package also computes in float32, so results
 * agree to about 1e-7.
 */
export function rescaleWithBaseline(
  [p, r, f]: readonly [number, number, number],
  baseline: BaselineValues,
): [number, number, number] {
  const b = [baseline.precision, baseline.recall, baseline.f1].map(Math.fround) as [number, number, number];
  return [(p - b[0]) / (1 - b[0]), (r - b[1]) / (1 - b[1]), (f - b[2]) / (1 - b[2])];
}
