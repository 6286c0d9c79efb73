import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CitegeistError, canonicalJson, sha256Hex } from '../../core/index.js';
import {
  ARGUE_JUDGE_TEMPERATURE,
  argueJudgeOf,
  type CitedDocumentSource,
  certifyJudge,
  DEFAULT_MAX_DOC_CHARS,
  type JudgeReportInput,
  judgedReports,
  judgedReportsIn,
  judgeIntoFile,
  LexicalJudge,
  openJudgments,
  pendingJudgments,
  planJudging,
  prepareJudging,
  type ReportJudge,
  renderEvidenceTally,
  repeatJudges,
  repeatRequests,
  reportJudgmentsManifest,
} from '../../grade/index.js';
import { hashInputs } from '../../io/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { QuoteLocator } from '../../text/index.js';
import { VERSION } from '../../version.js';
import { parseLengthMode } from '../commands/report-runs-validate.js';
import type { CliContext } from '../context.js';
import type { LlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import type { RuntimeFactory } from './faithfulness-runtime.js';
import { openDocuments, readBanks, readRequests, readRuns, reportProblems } from './report-runs-inputs.js';

export interface JudgeOptions {
  runs: string[];
  nuggets: string;
  requests: string;
  docs: string;
  out: string;
  limit?: number;
  lengthMode: string;
  maxDocChars?: number;
  /** Count attestations and nugget matches whose quotes are not found as the judge said. */
  trustUnlocatedEvidence?: boolean;
  /** Judge each report this many times (`--repeats K`; default 1). */
  repeats?: number;
  /** The ARGUE judge's card (else one found in the workspace), and the agreement it must show. */
  judgeCard?: string;
  requireAgreement?: number;
}

/** Reads the inputs, judges the reports not yet judged in --out, appends each, prints the summary. */
export async function runReportsJudge(
  o: JudgeOptions,
  settings: LlmSettings,
  makeRuntime: RuntimeFactory,
  ctx: CliContext,
): Promise<void> {
  const { io } = ctx;
  const lengthMode = parseLengthMode(o.lengthMode);
  const runs = readRuns(io.cwd, o.runs);
  const skippedLines = reportProblems(
    ctx,
    runs.problems.map((p) => ({ where: p.where, problem: p.problem })),
  );
  const prepared = prepareJudging(
    runs.reports,
    readRequests(io.cwd, o.requests),
    readBanks(io.cwd, o.nuggets),
    {
      limit: o.limit ?? null,
      lengthMode,
    },
  );
  reportProblems(ctx, prepared.skipped);
  const outPath = resolve(io.cwd, o.out);
  const lexical = settings.judge === 'lexical';
  const repeats = o.repeats ?? 1;
  if (lexical && repeats > 1) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--repeats ${repeats} was given with --judge lexical: the lexical judge is deterministic, every repeat would say the same.`,
      "Pass --judge <model> to measure a model judge's noise, or leave --repeats out.",
    );
  }
  const card = certifyJudge(
    argueJudgeOf(lexical ? new LexicalJudge().id : modelId(parseModelString(settings.judge!)), lexical),
    { cwd: io.cwd, given: o.judgeCard, near: [dirname(outPath)] },
    o.requireAgreement,
  );
  const docs = openDocuments(io.cwd, o.docs);
  const maxDocChars = o.maxDocChars ?? DEFAULT_MAX_DOC_CHARS;
  const trust = o.trustUnlocatedEvidence === true;
  const manifestFor = (judge: string) =>
    reportJudgmentsManifest({
      judge,
      nuggets: o.nuggets,
      requests: o.requests,
      docs: o.docs,
      limit: o.limit ?? null,
      lengthMode,
      maxDocChars: lexical ? null : maxDocChars,
      trustUnlocatedEvidence: trust,
      judgeRepeats: { repeats, temperature: ARGUE_JUDGE_TEMPERATURE },
      version: VERSION,
    });
  try {
    if (settings.dryRun) {
      const judgeId = lexical ? new LexicalJudge().id : modelId(parseModelString(settings.judge!));
      const done = existsSync(outPath) ? judgedReportsIn(outPath, manifestFor(judgeId)) : new Map();
      const todo = pendingJudgments(prepared.inputs, done);
      return printPlan(todo, docs.source, maxDocChars, lexical, settings, ctx, repeats);
    }
    const runtime = lexical ? null : makeRuntime(settings, ctx);
    try {
      const judges = runtime ? repeatJudges(runtime.provider(settings.judge!), repeats, { maxDocChars }) : [];
      const judge: ReportJudge = judges[0] ?? new LexicalJudge();
      const inputsSha256 = hashInputs(io.cwd, [...o.runs, o.nuggets, o.requests]);
      const file = openJudgments(outPath, manifestFor(judge.id), {
        docs_found: docs.source.description,
        inputs_sha256: inputsSha256,
      });
      try {
        await runtime?.useRun?.({
          run_id: sha256Hex(canonicalJson(['argue-judge', judge.id, inputsSha256])).slice(0, 16),
          label: `argue judge ${judge.id}`,
          kind: 'judgments',
        });
      } catch (error) {
        file.close();
        throw error;
      }
      const total = pendingJudgments(prepared.inputs, judgedReports(file.kept)).length;
      const progress = createProgress({ io: ctx.io, label: 'judge', total, unit: 'reports' });
      // The judge's calls, with the tokens the server reported (none for the lexical judge).
      runtime?.onCall?.((call) => progress.call(call));
      const context = {
        judge,
        docs: docs.source,
        version: VERSION,
        locator: new QuoteLocator(),
        ...(judges.length > 1 ? { repeatJudges: judges } : {}),
      };
      const result = await judgeIntoFile(
        file,
        prepared.inputs,
        { ...context, trustUnlocatedEvidence: trust },
        {
          concurrency: settings.concurrency,
          onReport: (judged, input) => {
            const failed = judged.citegeist?.failed ?? 0;
            progress.tick({
              ok: failed === 0,
              note: `${input.report.runId}/${input.report.topicId}`,
              ...(failed > 0 ? { problem: `${input.report.where}: ${failed} failed judgments` } : {}),
            });
          },
        },
      ).finally(() => progress.stop());
      const evidence = result.evidence;
      const summary = {
        reports: prepared.inputs.length,
        judged: result.judged,
        resumed: result.resumed,
        skipped_reports: prepared.skipped.length,
        skipped_lines: skippedLines,
        ...(repeats > 1 ? { repeats } : {}),
        reports_with_failures: result.reportsWithFailures,
        failed_judgments: result.failedJudgments,
        truncated_sentences: result.truncatedSentences,
        evidence,
        trust_unlocated_evidence: trust,
        out: o.out,
        judge_card: card,
      };
      if (ctx.globals().json) io.out(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        io.out(
          `judged ${summary.judged} reports with ${judge.id}${repeats > 1 ? ` ${repeats} times each` : ''} (${summary.resumed} already in ${o.out}); ` +
            `${summary.failed_judgments} failed judgments in ${summary.reports_with_failures} reports; ` +
            `${summary.truncated_sentences} sentences past the length limit left out; ` +
            `${summary.skipped_reports + summary.skipped_lines} reports skipped\n` +
            `judgments: ${o.out} (open in ARGUE-viz, score with \`citegeist reports score\`)\n`,
        );
        const lines = [
          ...renderEvidenceTally(evidence.attestations, trust, {
            what: 'attestations',
            where: 'the cited document',
          }),
          ...renderEvidenceTally(evidence.nugget_matches, trust, {
            what: 'nugget matches',
            where: 'the sentence',
          }),
        ];
        for (const line of lines) io.out(`${line}\n`);
        io.out(`${card.line}\n`);
        if (result.reportsWithFailures > 0)
          io.out('rerun the same command to retry the reports with failed judgments\n');
      }
      if (result.reportsWithFailures > 0 || summary.skipped_reports + skippedLines > 0) ctx.setExitCode(1);
    } finally {
      runtime?.close();
    }
  } finally {
    docs.close();
  }
}

function printPlan(
  todo: JudgeReportInput[],
  docs: CitedDocumentSource,
  maxDocChars: number,
  lexical: boolean,
  settings: LlmSettings,
  ctx: CliContext,
  repeats: number,
): void {
  const plan = planJudging(todo, docs, maxDocChars);
  // Judged K times: every call K times (`--repeats`).
  const requests = repeatRequests(plan.requests, repeats);
  const estimate = lexical
    ? null
    : estimateCost(modelId(parseModelString(settings.judge!)), requests, {
        prices: settings.prices,
        // Judge replies are short JSON (a verdict, a quote): 200 tokens is generous.
        expectedOutputTokens: 200,
      });
  const result = {
    reports: plan.reports,
    sentences: plan.sentences,
    truncated_sentences: plan.truncatedSentences,
    citations: plan.citations,
    missing_documents: plan.missingDocuments,
    judge: settings.judge,
    ...(repeats > 1 ? { repeats } : {}),
    calls: lexical ? 0 : requests.length,
    ...(estimate
      ? {
          input_tokens: estimate.inputTokens,
          output_tokens: estimate.outputTokens,
          cost_usd: estimate.costUsd,
        }
      : {}),
  };
  if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
  ctx.io.out(
    `dry run: ${plan.reports} reports, ${plan.sentences} sentences (${plan.truncatedSentences} past the length limit), ${plan.citations} citations (${plan.missingDocuments} not in the documents)\n`,
  );
  if (!estimate) ctx.io.out('  lexical judge: no model calls\n');
  else {
    const cost = estimate.costUsd === null ? 'no price' : `$${estimate.costUsd.toFixed(4)}`;
    ctx.io.out(
      `  ${settings.judge}: at most ${requests.length} calls (${repeats > 1 ? `${plan.requests.length} per repeat × ${repeats} repeats; ` : ''}uncited sentences counted at their most), ${estimate.inputTokens} input + ${estimate.outputTokens} output tokens, ${cost}\n`,
    );
  }
}
