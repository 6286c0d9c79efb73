import { CitegeistError } from '../../core/index.js';
import type { TrecEvalResult } from './trec-eval-result.js';

/**
 * trec_eval stops part way: it prints each topic's lines (-q) as soon as the topic is scored and
 * each measure's summary line as soon as it is finished, so when it meets an error (a judged topic
 * missing from the run, a document listed twice in a later topic…) the lines before it are already
 * on stdout. This error carries them: `partial` holds the topics scored before the stop and the
 * summary values finished before it, so `formatTrecEval(error.partial, …)` prints exactly what
 * trec_eval 10.0 prints before it exits. Code, problem and fix are those of the error that stopped
 * the evaluation (also kept as `cause`), so callers that branch on the code need nothing new.
 */
export class TrecEvalStopped extends CitegeistError {
  /** What was evaluated before the stop (`summary` is empty when a topic stopped it). */
  readonly partial: TrecEvalResult;
  /** Where it stopped: scoring this topic, or finishing the summary of this measure. */
  readonly stoppedAt: { stage: 'topic'; qid: string } | { stage: 'summary'; measure: string };

  constructor(cause: CitegeistError, partial: TrecEvalResult, stoppedAt: TrecEvalStopped['stoppedAt']) {
    super(cause.code, cause.problem, cause.fix, { cause });
    this.name = 'TrecEvalStopped';
    this.partial = partial;
    this.stoppedAt = stoppedAt;
  }
}

export function isTrecEvalStopped(error: unknown): error is TrecEvalStopped {
  return error instanceof TrecEvalStopped;
}
