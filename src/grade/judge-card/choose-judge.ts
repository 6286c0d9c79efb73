import { CitegeistError, quoteValue } from '../../core/index.js';
import type { HumanSet } from '../human-labels/index.js';
import { LexicalClaimSupportJudge, VetscoreClaimSupportJudge } from './claim-support-judge.js';
import { PairwiseJudge } from './pairwise-judge.js';
import { ReferenceRubricJudge, UtilityRubricJudge } from './rubric-set-judge.js';
import type { JudgeProvider, SetJudge } from './set-judge.js';

export const SET_JUDGE_KINDS = ['claim-support', 'rubric', 'pairwise'] as const;
export type SetJudgeKind = (typeof SET_JUDGE_KINDS)[number];

/** The judge a set is certified with by default: claim support for Check-COVID, the rubric otherwise. */
export function defaultJudgeKind(set: HumanSet): SetJudgeKind {
  return set.name === 'check-covid' ? 'claim-support' : 'rubric';
}

/**
 * Builds the judge of `kind` for a set: `claim-support` (VETSCORE's verification judge; `lexical`
 * offline) on claim + evidence; `rubric` (the anchored rubric judge against the reference answer
 * where items have one, else the reference-free utility rubric); `pairwise` (both orders).
 * `llm` is null for the offline lexical judge.
 */
export function chooseSetJudge(kind: SetJudgeKind, set: HumanSet, llm: JudgeProvider | null): SetJudge {
  const hasClaims = set.items.every((i) => 'claim' in i.inputs);
  const hasPairs = set.items.every((i) => 'answer_1' in i.inputs && 'answer_2' in i.inputs);
  const refuse = (why: string, fix: string) => new CitegeistError('BAD_OPTION', why, fix);
  if (kind === 'claim-support') {
    if (!hasClaims)
      throw refuse(
        `The ${set.name} set has no claims to check.`,
        'Use --judge-kind rubric or pairwise for answer sets.',
      );
    return llm ? new VetscoreClaimSupportJudge(llm) : new LexicalClaimSupportJudge();
  }
  if (!llm) {
    throw refuse(
      `The lexical judge only checks claim support; it cannot run the ${kind} judge on ${set.name}.`,
      'Pass --judge <model>, or use --set check-covid with --judge lexical.',
    );
  }
  if (kind === 'pairwise') {
    if (!hasPairs)
      throw refuse(`The ${set.name} set has no answer pairs to compare.`, 'Use --judge-kind rubric.');
    return new PairwiseJudge(llm, set.dimension);
  }
  if (kind === 'rubric') {
    if (hasClaims)
      throw refuse(`The ${set.name} set holds claims, not answers.`, 'Use --judge-kind claim-support.');
    const withReference = set.items.every(
      (i) => typeof i.inputs.reference === 'string' && i.inputs.reference !== '',
    );
    return withReference ? new ReferenceRubricJudge(llm, set.dimension) : new UtilityRubricJudge(llm);
  }
  throw refuse(
    `There is no judge kind ${quoteValue(kind)}.`,
    `Use --judge-kind ${SET_JUDGE_KINDS.join('|')}.`,
  );
}
