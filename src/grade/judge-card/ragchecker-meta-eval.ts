import { pythonRound } from '../../python-compat/index.js';
import { agreementMeasures, pairTable } from '../../stats/index.js';
import {
  RAGCHECKER_DIMENSIONS,
  type RagcheckerDimension,
  readRagchecker,
  readRagcheckerScores,
  rescaledScoreDifferences,
  type SetFileReads,
} from '../human-labels/index.js';

/** One row of RAGChecker's Table 2 (correlation with human judgment), in percent to 2 decimals. */
export interface RagcheckerMetaEvalRow {
  dimension: RagcheckerDimension;
  /** RAGChecker's own score vs the 560 human labels. */
  pearson: number;
  spearman: number;
  /** Annotator 1 vs annotator 2 (the paper's "Human" sanity row). */
  human_pearson: number;
  human_spearman: number;
  pairs: number;
}

/**
 * Recomputes RAGChecker's published meta-evaluation from its released files (human_labeled_data.json
 * and baseline_ragchecker.json), by its protocol (`rescaledScoreDifferences`, each of the 560
 * labels paired with its pair's difference) and with the same functions a judge card uses; the
 * paper prints 100 × r rounded to 2 decimals (Python `round`), as this does.
 */
export function reproduceRagcheckerMetaEval(dir: string): RagcheckerMetaEvalRow[] {
  const reads: SetFileReads = new Map(); // each file read once for every dimension
  return RAGCHECKER_DIMENSIONS.map((dimension) => {
    const set = readRagchecker(dir, dimension, reads);
    const diffs = rescaledScoreDifferences(readRagcheckerScores(dir, dimension, reads).scores);
    const x: number[] = [];
    const y: number[] = [];
    for (const item of set.items) {
      for (const l of item.labels) {
        x.push(diffs.get(item.id)!);
        y.push(l.value);
      }
    }
    const spec = { level: 'interval' as const, measures: ['pearson', 'spearman'] as const };
    const auto = agreementMeasures(pairTable(x, y), spec);
    const human = agreementMeasures(
      pairTable(
        set.items.map((i) => i.labels[0]!.value),
        set.items.map((i) => i.labels[1]!.value),
      ),
      spec,
    );
    const pct = (v: number | null | undefined) => pythonRound((v ?? Number.NaN) * 100, 2);
    return {
      dimension,
      pearson: pct(auto.pearson),
      spearman: pct(auto.spearman),
      human_pearson: pct(human.pearson),
      human_spearman: pct(human.spearman),
      pairs: x.length,
    };
  });
}
