import { dirname } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { type CardNote, certifyJudge, rubricJudgeOf } from '../../grade/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import type { CliContext } from '../context.js';
import type { Prepared } from './grading.js';
import type { JudgeCardFlags } from './judge-card-options.js';

/**
 * The rubric judge's card (--judge-card, else found beside the output or in the workspace),
 * refused under --require-agreement before any call; null when nothing is judged.
 */
export function rubricJudgeCard(
  ctx: CliContext,
  p: Prepared,
  opts: JudgeCardFlags,
  out: string,
): CardNote | null {
  if (!p.settings.judge) {
    if (opts.judgeCard === undefined) return null;
    throw new CitegeistError(
      'BAD_OPTION',
      '--judge-card was given but no --judge: without a judge `grade` makes no judged numbers.',
      'Add --judge <model> (the model the card certifies), or leave --judge-card out.',
    );
  }
  const judge = rubricJudgeOf(modelId(parseModelString(p.settings.judge, '--judge')));
  return certifyJudge(
    judge,
    { cwd: ctx.io.cwd, given: opts.judgeCard, near: [dirname(out)] },
    opts.requireAgreement,
  );
}
