import { CitegeistError, quoteValue } from '../../core/index.js';
import { fmeasure, type RougeScore, scoreLcs, summaryLevelLcs, ZERO_SCORE } from './rouge-lcs.js';
import { cachedPorterStemmer, rougeTokenize } from './rouge-tokenize.js';

/** rouge1 … rouge9 (n-gram overlap), rougeL (LCS) and rougeLsum (summary-level LCS over lines). */
export type RougeType = `rouge${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}` | 'rougeL' | 'rougeLsum';

export interface RougeOptions {
  /** Porter-stem tokens longer than 3 characters (rouge-score `use_stemmer`). */
  stemmer?: boolean;
}

export type RougeScores = Partial<Record<RougeType, RougeScore>>;

/**
 * Checks rouge type names as rouge-score's `RougeScorer.score` does (`rougeL`, `rougeLsum`, or
 * `rouge[0-9]$` with n > 0), but when the scorer is built rather than at the first score.
 */
export function parseRougeTypes(types: readonly string[]): RougeType[] {
  if (types.length === 0) {
    throw new CitegeistError('BAD_OPTION', 'No ROUGE type was given.', 'Use e.g. rouge1,rouge2,rougeL.');
  }
  for (const t of types) {
    if (t === 'rougeL' || t === 'rougeLsum') continue;
    if (/^rouge[0-9]$/.test(t)) {
      if (t === 'rouge0') {
        throw new CitegeistError('BAD_OPTION', 'rougen requires positive n: rouge0.', 'Use rouge1 … rouge9.');
      }
      continue;
    }
    throw new CitegeistError(
      'BAD_OPTION',
      `Invalid rouge type: ${quoteValue(t)}.`,
      'Use rouge1 … rouge9, rougeL or rougeLsum.',
    );
  }
  return [...types] as RougeType[];
}

/**
 * rouge-score's `RougeScorer` (rouge_score/rouge_scorer.py, v0.1.2): `score(target, prediction)`
 * and `scoreMulti(targets, prediction)`, with the package's values.
 *
 * Not ported: `split_summaries=True` (sentence splitting with NLTK's Punkt before ROUGE-Lsum); as
 * in the package's default, ROUGE-Lsum treats each line as a sentence.
 */
export class RougeScorer {
  readonly types: readonly RougeType[];
  readonly stemmer: boolean;
  private readonly stem: ((word: string) => string) | undefined;
  private row = new Int32Array(256);

  constructor(types: readonly string[], options: RougeOptions = {}) {
    this.types = parseRougeTypes(types);
    this.stemmer = options.stemmer ?? false;
    this.stem = this.stemmer ? cachedPorterStemmer() : undefined;
  }

  /** The package's tokenizer with this scorer's stemming. */
  tokenize(text: string): string[] {
    return rougeTokenize(text, this.stem);
  }

  score(target: string, prediction: string): RougeScores {
    const needsWhole = this.types.some((t) => t !== 'rougeLsum');
    const targetTokens = needsWhole ? this.tokenize(target) : [];
    const predictionTokens = needsWhole ? this.tokenize(prediction) : [];
    const result: RougeScores = {};
    for (const type of this.types) {
      if (type === 'rougeL') {
        if (this.row.length <= predictionTokens.length)
          this.row = new Int32Array(predictionTokens.length * 2 + 1);
        result[type] = scoreLcs(targetTokens, predictionTokens, this.row);
      } else if (type === 'rougeLsum') {
        const sentences = (text: string) =>
          // "Assume sentences are separated by newline"; empty lines dropped, blank ones kept.
          text
            .split('\n')
            .filter((s) => s.length > 0)
            .map((s) => this.tokenize(s));
        result[type] = summaryLevelLcs(sentences(target), sentences(prediction));
      } else {
        result[type] = scoreNgrams(targetTokens, predictionTokens, Number(type.slice(5)));
      }
    }
    return result;
  }

  /**
   * `score_multi`: scores the prediction against each target and keeps, per type, the whole score
   * (P, R and F) of the target with the highest F (the first on ties, as `np.argmax`). No targets
   * → null (the package raises on an empty list).
   */
  scoreMulti(targets: readonly string[], prediction: string): RougeScores | null {
    if (targets.length === 0) return null;
    const all = targets.map((t) => this.score(t, prediction));
    const best: RougeScores = {};
    for (const type of this.types) {
      let top = all[0]![type]!;
      for (const s of all) if (s[type]!.fmeasure > top.fmeasure) top = s[type]!;
      best[type] = top;
    }
    return best;
  }
}

/** `_create_ngrams` + `_score_ngrams`: clipped n-gram overlap, P over prediction n-grams, R over target n-grams. */
export function scoreNgrams(target: readonly string[], prediction: readonly string[], n: number): RougeScore {
  const targetCounts = ngramCounts(target, n);
  const predictionCounts = ngramCounts(prediction, n);
  let intersection = 0;
  for (const [gram, count] of targetCounts) intersection += Math.min(count, predictionCounts.get(gram) ?? 0);
  const targetTotal = Math.max(target.length - n + 1, 0);
  const predictionTotal = Math.max(prediction.length - n + 1, 0);
  if (targetTotal === 0 && predictionTotal === 0) return { ...ZERO_SCORE };
  const precision = intersection / Math.max(predictionTotal, 1);
  const recall = intersection / Math.max(targetTotal, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    // Tokens are [a-z0-9]+, so a space cannot make two different n-grams collide.
    const key = n === 1 ? tokens[i]! : tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
