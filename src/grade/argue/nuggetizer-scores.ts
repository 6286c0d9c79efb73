/**
 * nuggetizer's scores from its assignment output (castorini/nuggetizer `src/nuggetizer/core/metrics.py`
 * @ 0b584002, and `scripts/calculate_metrics.py`): per answer, over its nuggets labelled `support`,
 * `partial_support` or `not_support`, with `vital` nuggets on their own:
 * `strict_vital` / `strict_all` count full support only, `vital` / `all` count partial support as
 * 0.5; an empty set scores 0.0. The `all` line is the exact mean (`statistics.mean`) per score.
 * Output lines are written as `json.dumps` writes them.
 */

import { CitegeistError } from '../../core/index.js';
import { asNuggetizerRecord, type NuggetizerRecord } from '../../formats/index.js';
import { parseJsonl } from '../../io/index.js';
import { exactMean, markFloat, stringifyPythonJson } from '../../python-compat/index.js';

export interface NuggetizerScores {
  qid: string;
  strict_vital_score: number;
  strict_all_score: number;
  vital_score: number;
  all_score: number;
}

/** `calculate_nugget_scores(qid, nuggets)`. */
export function nuggetizerScores(record: NuggetizerRecord): NuggetizerScores {
  const all = record.nuggets;
  const vital = all.filter((n) => n.importance === 'vital');
  const strict = (ns: typeof all) => ns.filter((n) => n.assignment === 'support').length;
  // The reference adds 0.5 per partial support with `sum`, left to right, after the strict count.
  const partial = (ns: typeof all) =>
    ns.filter((n) => n.assignment === 'partial_support').reduce((s) => s + 0.5, 0);
  const div = (a: number, n: number) => (n > 0 ? a / n : 0);
  return {
    qid: String(record.qid),
    strict_vital_score: div(strict(vital), vital.length),
    strict_all_score: div(strict(all), all.length),
    vital_score: div(strict(vital) + partial(vital), vital.length),
    all_score: div(strict(all) + partial(all), all.length),
  };
}

/** `calculate_global_metrics(records)`: the mean of each score, with `qid: "all"`. */
export function nuggetizerGlobal(scores: readonly NuggetizerScores[]): NuggetizerScores {
  const mean = (k: Exclude<keyof NuggetizerScores, 'qid'>) => exactMean(scores.map((s) => s[k]));
  return {
    qid: 'all',
    strict_vital_score: mean('strict_vital_score'),
    strict_all_score: mean('strict_all_score'),
    vital_score: mean('vital_score'),
    all_score: mean('all_score'),
  };
}

/** The metrics file `calculate_metrics.py` writes: one line per record, then the `all` line. */
export function formatNuggetizerMetrics(scores: readonly NuggetizerScores[]): string {
  const line = (s: NuggetizerScores) => {
    const out = { ...s };
    // The scores are Python floats: `1.0`, not `1`.
    for (const k of Object.keys(out)) if (k !== 'qid') markFloat(out, k);
    return stringifyPythonJson(out);
  };
  return `${[...scores, nuggetizerGlobal(scores)].map(line).join('\n')}\n`;
}

/** The scores of every record of a nuggetizer assignment JSONL; a line that is not JSON is an error naming it. */
export function nuggetizerScoresOfText(text: string, file: string): NuggetizerScores[] {
  return parseJsonl(text).map((line) => {
    if (!line.ok)
      throw new CitegeistError(
        'INVALID_JSON',
        `${file} line ${line.line} is not JSON (${line.error}).`,
        'Fix the line.',
      );
    return nuggetizerScores(asNuggetizerRecord(line.value, `${file} line ${line.line}`));
  });
}
