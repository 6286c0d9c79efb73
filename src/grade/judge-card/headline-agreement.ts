import type { AgreementMeasureId, BootstrapInterval } from '../../stats/index.js';
import type { JudgeCard } from './judge-card.js';

/** The measures a card is summed up by, in order of preference. */
export const HEADLINE_MEASURES: readonly AgreementMeasureId[] = ['kappa', 'alpha', 'spearman'];

/** A card's headline: one agreement measure of the judge with people, and the same between people. */
export interface HeadlineAgreement {
  measure: AgreementMeasureId;
  judge: BootstrapInterval & { estimate: number };
  /** The human ceiling of the same measure; null when the set has one label per item. */
  ceiling: BootstrapInterval | null;
}

/**
 * The one number a card is summed up by, and that `--require-agreement` compares: Cohen's κ
 * (unweighted) where the card has it (judge labels on a category scale), else Krippendorff's α at
 * the scale's level (continuous scores), else Spearman ρ. Null when the card has none of them.
 */
export function headlineAgreement(card: JudgeCard): HeadlineAgreement | null {
  for (const measure of HEADLINE_MEASURES) {
    const judge = card.measures[measure];
    if (!judge || judge.estimate === null || judge.estimate === undefined) continue;
    const ceiling = card.ceiling.available ? (card.ceiling.measures[measure] ?? null) : null;
    return { measure, judge: { ...judge, estimate: judge.estimate }, ceiling };
  }
  return null;
}
