import pLimit from 'p-limit';
/**
 * Judging a set of runs: pairing each report with its request and nugget bank, judging reports
 * concurrently (model calls share one limit), and the `--dry-run` plan of the calls a run makes.
 */
import {
  answerEntries,
  isQuestion,
  type LengthMode,
  type LoadedBank,
  nuggetEntries,
  type Report,
  type ReportRequest,
  sentencesWithinLimit,
} from '../../formats/index.js';
import type { ChatMessage } from '../../llm/index.js';
import type { CitedDocumentSource } from './documents.js';
import { judgeReportRepeated } from './judge-repeats.js';
import { type JudgeReportContext, type JudgeReportInput, judgeReport } from './judge-report.js';
import type { JudgedReport } from './judgments.js';
import {
  attestPrompt,
  clip,
  firstInstancePrompt,
  negativePrompt,
  nuggetPrompt,
  relevancePrompt,
  requiresCitationPrompt,
} from './prompts.js';
import type { JudgeNugget } from './report-judge.js';

/** The nuggets of a bank as the judge sees them (question nuggets; claims are not matched). */
export function judgeNuggets(bank: LoadedBank): JudgeNugget[] {
  return nuggetEntries(bank.bank).flatMap(([key, n]) =>
    isQuestion(n)
      ? [{ question: key, answers: answerEntries(n).map(([k]) => k), importance: n.importance ?? null }]
      : [],
  );
}

export interface PreparedJudging {
  inputs: JudgeReportInput[];
  /** Reports that cannot be judged (no request, no nuggets), with the reason. */
  skipped: { where: string; problem: string }[];
}

/** Pairs reports with their requests and banks; a report without either is skipped with a reason. */
export function prepareJudging(
  reports: readonly Report[],
  requests: ReadonlyMap<string, ReportRequest>,
  banks: ReadonlyMap<string, LoadedBank>,
  options: { limit?: number | null; lengthMode: LengthMode },
): PreparedJudging {
  const out: PreparedJudging = { inputs: [], skipped: [] };
  for (const report of reports) {
    const request = requests.get(report.topicId);
    const bank = banks.get(report.topicId);
    if (!request)
      out.skipped.push({ where: report.where, problem: `topic ${report.topicId} is not in the requests` });
    else if (!bank)
      out.skipped.push({ where: report.where, problem: `topic ${report.topicId} has no nugget bank` });
    else {
      out.inputs.push({
        report,
        request,
        nuggets: judgeNuggets(bank),
        limit: options.limit ?? request.limit,
        lengthMode: options.lengthMode,
      });
    }
  }
  return out;
}

/** The key of a judged report: one line per (run, topic) in the judgments file. */
export function reportKey(runId: string, topicId: string): string {
  return `${runId}\u0000${topicId}`;
}

/** Judges reports concurrently; each result is handed to `onReport` as it completes. */
export async function judgeReports(
  inputs: readonly JudgeReportInput[],
  ctx: JudgeReportContext,
  options: { concurrency: number; onReport?: (judged: JudgedReport, input: JudgeReportInput) => void },
): Promise<JudgedReport[]> {
  const limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  return Promise.all(
    inputs.map((input) =>
      limit(async () => {
        const judged = ctx.repeatJudges
          ? await judgeReportRepeated(input, ctx, ctx.repeatJudges)
          : await judgeReport(input, ctx);
        options.onReport?.(judged, input);
        return judged;
      }),
    ),
  );
}

export interface JudgingPlan {
  reports: number;
  sentences: number;
  truncatedSentences: number;
  citations: number;
  missingDocuments: number;
  /** The prompts a model judge would be sent (uncited sentences: the most calls they can need). */
  requests: { messages: ChatMessage[] }[];
}

/** `--dry-run`: the calls judging would make, without making one. */
export function planJudging(
  inputs: readonly JudgeReportInput[],
  docs: CitedDocumentSource,
  maxDocChars: number,
): JudgingPlan {
  const plan: JudgingPlan = {
    reports: inputs.length,
    sentences: 0,
    truncatedSentences: 0,
    citations: 0,
    missingDocuments: 0,
    requests: [],
  };
  const push = (messages: ChatMessage[]) => plan.requests.push({ messages });
  for (const input of inputs) {
    const texts = input.report.sentences.map((s) => s.text);
    const kept =
      input.limit === null ? texts.length : sentencesWithinLimit(texts, input.limit, input.lengthMode);
    plan.sentences += kept;
    plan.truncatedSentences += texts.length - kept;
    const relevant = new Set<string>();
    input.report.sentences.slice(0, kept).forEach((s, i) => {
      if (s.citations.length === 0) {
        push(negativePrompt(s.text));
        push(requiresCitationPrompt(s.text, input.request));
        if (i > 0) push(firstInstancePrompt(s.text, texts.slice(0, i)));
        return;
      }
      if (input.nuggets.length > 0) push(nuggetPrompt(s.text, input.nuggets));
      for (const id of s.citations) {
        plan.citations++;
        const doc = docs.get(id);
        if (!doc) {
          plan.missingDocuments++;
          continue;
        }
        const text = clip(doc.text, maxDocChars);
        push(attestPrompt(s.text, text));
        if (!relevant.has(id)) push(relevancePrompt(input.request, text));
        relevant.add(id);
      }
    });
  }
  return plan;
}
