/**
 * Judging each report K times (`reports judge --repeats K`, issue 28 item 4): the judge's own noise
 * is measured by asking it every question of a report again, K times in all, each repeat with its
 * own request seed so a response cache keeps the calls apart (as `grade --judge` and `grade
 * faithfulness` do with `--repeats`). Judged once, nothing changes: no seed is sent, and the line
 * is what it always was.
 *
 * The line stays one judged report in ARGUE-viz's layout: its `judgments` are the first repeat's,
 * and `citegeist.repeat_judgments` keeps every later repeat's judgments per sentence (the sentence
 * text and citations are the same in every repeat and are not written again). A judgment that
 * failed in any repeat is a failed judgment of the line — `citegeist.failed` counts every repeat —
 * so the report is judged again on resume and its topic is left out of the scores, never scored 0.
 */

import type { LlmProvider } from '../../llm/index.js';
import { mergeTallies } from '../evidence-grounding.js';
import { JUDGE_CALL_TEMPERATURE } from '../vetscore/llm-call.js';
import { type JudgeReportContext, type JudgeReportInput, judgeReport } from './judge-report.js';
import type { JudgedReport, JudgedSentence, RepeatSentence } from './judgments.js';
import { type LlmJudgeOptions, LlmReportJudge } from './llm-report-judge.js';
import type { ReportJudge } from './report-judge.js';

/** The temperature the ARGUE judge's calls are made at (stated in the manifest of a repeated judging). */
export const ARGUE_JUDGE_TEMPERATURE = JUDGE_CALL_TEMPERATURE;

/**
 * The K judges of a repeated judging: one model judge per repeat, repeat r sending request seed r.
 * K = 1 gives the one judge without a seed, so its cache keys are those of a judging without
 * `--repeats`.
 */
export function repeatJudges(
  llm: LlmProvider,
  repeats: number,
  options: LlmJudgeOptions = {},
): ReportJudge[] {
  const k = Math.max(1, Math.floor(repeats));
  if (k === 1) return [new LlmReportJudge(llm, options)];
  return Array.from(
    { length: k },
    (_, seed) => new LlmReportJudge(llm, { ...options, call: { ...options.call, seed } }),
  );
}

const repeatSentence = (s: JudgedSentence): RepeatSentence =>
  s.failed_judgments
    ? { judgments: s.judgments, failed_judgments: s.failed_judgments }
    : { judgments: s.judgments };

/**
 * Judges one report with each of `judges` (one repeat after another, so `--concurrency` stays the
 * number of reports in flight) into one line: the first repeat's judgments, the later repeats'
 * in `citegeist.repeat_judgments`. One judge: exactly `judgeReport`'s line.
 */
export async function judgeReportRepeated(
  input: JudgeReportInput,
  ctx: JudgeReportContext,
  judges: readonly ReportJudge[],
): Promise<JudgedReport> {
  if (judges.length <= 1) return judgeReport(input, judges[0] ? { ...ctx, judge: judges[0] } : ctx);
  const runs: JudgedReport[] = [];
  for (const judge of judges) runs.push(await judgeReport(input, { ...ctx, judge }));
  const first = runs[0]!;
  const record = first.citegeist!;
  const evidence = runs.map((r) => r.citegeist?.evidence);
  return {
    report: first.report,
    judgments: first.judgments,
    citegeist: {
      ...record,
      failed: runs.reduce((n, r) => n + (r.citegeist?.failed ?? 0), 0),
      evidence: {
        attestations: mergeTallies(evidence.map((e) => e?.attestations ?? [])),
        nugget_matches: mergeTallies(evidence.map((e) => e?.nugget_matches ?? [])),
      },
      repeats: judges.length,
      repeat_judgments: runs.slice(1).map((r) => r.judgments.map(repeatSentence)),
    },
  };
}

/** The judge calls of a `--dry-run` plan judged K times: every request K times. */
export function repeatRequests<T>(requests: readonly T[], repeats: number): T[] {
  return Array.from({ length: Math.max(1, Math.floor(repeats)) }, () => requests).flat();
}
