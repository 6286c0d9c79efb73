/**
 * The longest-common-subsequence parts of rouge-score (rouge_score/rouge_scorer.py): the LCS
 * table, its read-out with the package's tie-break, the union LCS and summary-level LCS
 * (ROUGE-Lsum, Lin 2004 §3.2, with ROUGE-1.5.5's guard against counting a token twice).
 * Tokens are compared with ===, so callers may pass strings or interned ids.
 */

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

export const ZERO_SCORE: Readonly<RougeScore> = Object.freeze({ precision: 0, recall: 0, fmeasure: 0 });

/** rouge_score/scoring.py `fmeasure`: 2·P·R / (P + R), 0 when P + R = 0 (same operation order). */
export function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** `_lcs_table(ref, can)`: (|ref|+1) × (|can|+1) rows of LCS lengths of prefixes. */
export function lcsTable<T>(ref: readonly T[], can: readonly T[]): Int32Array[] {
  const cols = can.length;
  const table = Array.from({ length: ref.length + 1 }, () => new Int32Array(cols + 1));
  for (let i = 1; i <= ref.length; i++) {
    const row = table[i]!;
    const up = table[i - 1]!;
    const r = ref[i - 1];
    for (let j = 1; j <= cols; j++) {
      row[j] = r === can[j - 1] ? up[j - 1]! + 1 : Math.max(up[j]!, row[j - 1]!);
    }
  }
  return table;
}

/**
 * The LCS length alone, in one row of memory: what ROUGE-L needs (`_score_lcs` reads only
 * `lcs_table[-1][-1]`). `row` may be passed in to avoid an allocation per pair.
 */
export function lcsLength<T>(ref: readonly T[], can: readonly T[], row?: Int32Array): number {
  const cols = can.length;
  const dp = row && row.length > cols ? row.fill(0, 0, cols + 1) : new Int32Array(cols + 1);
  for (let i = 0; i < ref.length; i++) {
    const r = ref[i];
    let diagonal = 0; // table[i][j-1] before this row overwrote it
    for (let j = 1; j <= cols; j++) {
      const above = dp[j]!;
      dp[j] = r === can[j - 1] ? diagonal + 1 : Math.max(above, dp[j - 1]!);
      diagonal = above;
    }
  }
  return dp[cols]!;
}

/**
 * `_backtrack_norec(t, ref, can)`: indices into `ref` of one LCS. The tie-break matters for
 * ROUGE-Lsum's union: on a mismatch it moves left only when `t[i][j-1] > t[i-1][j]`.
 */
export function backtrackLcs<T>(
  table: readonly Int32Array[],
  ref: readonly T[],
  can: readonly T[],
): number[] {
  let i = ref.length;
  let j = can.length;
  const lcs: number[] = [];
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      lcs.push(i - 1);
      i--;
      j--;
    } else if (table[i]![j - 1]! > table[i - 1]![j]!) {
      j--;
    } else {
      i--;
    }
  }
  return lcs.reverse();
}

/** `lcs_ind(ref, can)`: one LCS as indices into `ref`. */
export function lcsIndices<T>(ref: readonly T[], can: readonly T[]): number[] {
  return backtrackLcs(lcsTable(ref, can), ref, can);
}

/** `_find_union(lcs_list)`: the sorted union of index lists. */
export function findUnion(lcsList: readonly (readonly number[])[]): number[] {
  return [...new Set(lcsList.flat())].sort((a, b) => a - b);
}

/** `_union_lcs(ref, c_list)`: the tokens of `ref` in the union of its LCS with each candidate sentence. */
export function unionLcs<T>(ref: readonly T[], candidates: readonly (readonly T[])[]): T[] {
  return findUnion(candidates.map((c) => lcsIndices(ref, c))).map((i) => ref[i]!);
}

/** `_score_lcs`: ROUGE-L of two token lists (0 when either is empty). */
export function scoreLcs<T>(target: readonly T[], prediction: readonly T[], row?: Int32Array): RougeScore {
  if (target.length === 0 || prediction.length === 0) return { ...ZERO_SCORE };
  const lcs = lcsLength(target, prediction, row);
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/**
 * `_summary_level_lcs(ref_sent, can_sent)`: ROUGE-Lsum over tokenised sentences. For each reference
 * sentence, the union LCS with all candidate sentences; a token counts as a hit only while both
 * sides still have an unused occurrence of it (ROUGE-1.5.5's double-counting guard).
 */
export function summaryLevelLcs<T>(
  refSentences: readonly (readonly T[])[],
  canSentences: readonly (readonly T[])[],
): RougeScore {
  if (refSentences.length === 0 || canSentences.length === 0) return { ...ZERO_SCORE };
  const m = refSentences.reduce((s, x) => s + x.length, 0);
  const n = canSentences.reduce((s, x) => s + x.length, 0);
  if (n === 0 || m === 0) return { ...ZERO_SCORE };
  const countsR = countTokens(refSentences);
  const countsC = countTokens(canSentences);
  let hits = 0;
  for (const r of refSentences) {
    for (const t of unionLcs(r, canSentences)) {
      const c = countsC.get(t) ?? 0;
      const rr = countsR.get(t) ?? 0;
      if (c > 0 && rr > 0) {
        hits++;
        countsC.set(t, c - 1);
        countsR.set(t, rr - 1);
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function countTokens<T>(sentences: readonly (readonly T[])[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const s of sentences) for (const t of s) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
