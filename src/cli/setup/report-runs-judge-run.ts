import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { canonicalJson, sha256Hex } from '../../core/index.js';
import {
  argueJudgeOf,
  type CitedDocumentSource,
  certifyJudge,
  DEFAULT_MAX_DOC_CHARS,
  type EvidenceTally,
  type JudgeRecord,
  type JudgeReportInput,
  judgeReports,
  LexicalJudge,
  LlmReportJudge,
  mergeTallies,
  planJudging,
  prepareJudging,
  type ReportJudge,
  renderEvidenceTally,
  reportKey,
} from '../../grade/index.js';
import { JsonlAppender, parseJsonl, readTextFile, reorderRunFile } from '../../io/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { QuoteLocator } from '../../text/index.js';
import { VERSION } from '../../version.js';
import { parseLengthMode } from '../commands/report-runs-validate.js';
import type { CliContext } from '../context.js';
import type { LlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import { checkResumeMeta } from '../resume-meta.js';
import type { FaithfulnessRuntime, RuntimeFactory } from './faithfulness-runtime.js';
import {
  hashInputs,
  openDocuments,
  readBanks,
  readRequests,
  readRuns,
  reportProblems,
} from './report-runs-inputs.js';

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
  /** The ARGUE judge's card (else one found in the workspace), and the agreement it must show. */
  judgeCard?: string;
  requireAgreement?: number;
}

type Evidence = NonNullable<JudgeRecord['evidence']>;

/**
 * Reports already judged without failures in an existing judgments file (resume), by key, with
 * their evidence tallies (absent in lines written before grounding).
 */
function judgedKeys(path: string): Map<string, Evidence | undefined> {
  const done = new Map<string, Evidence | undefined>();
  if (!existsSync(path)) return done;
  for (const line of parseJsonl(readTextFile(path, 'judgments file'))) {
    if (!line.ok) continue; // a torn line from an interrupted run: that report is redone
    const v = line.value as {
      report?: { metadata?: { run_id?: string; topic_id?: string } };
      citegeist?: { failed?: number; evidence?: Evidence };
    };
    const meta = v.report?.metadata;
    if (meta?.run_id && meta.topic_id !== undefined && (v.citegeist?.failed ?? 0) === 0) {
      done.set(reportKey(meta.run_id, String(meta.topic_id)), v.citegeist?.evidence);
    }
  }
  return done;
}

/** Per judge model: the claims of support of these reports, located and unverified. */
function sumEvidence(list: Iterable<Evidence | undefined>): {
  attestations: EvidenceTally[];
  nugget_matches: EvidenceTally[];
} {
  const all = [...list].filter((e): e is Evidence => e !== undefined);
  return {
    attestations: mergeTallies(all.map((e) => e.attestations ?? [])),
    nugget_matches: mergeTallies(all.map((e) => e.nugget_matches ?? [])),
  };
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
  const done = judgedKeys(outPath);
  const todo = prepared.inputs.filter((i) => !done.has(reportKey(i.report.runId, i.report.topicId)));
  const lexical = settings.judge === 'lexical';
  const card = certifyJudge(
    argueJudgeOf(lexical ? new LexicalJudge().id : modelId(parseModelString(settings.judge!)), lexical),
    { cwd: io.cwd, given: o.judgeCard, near: [dirname(outPath)] },
    o.requireAgreement,
  );
  const docs = openDocuments(io.cwd, o.docs);
  const maxDocChars = o.maxDocChars ?? DEFAULT_MAX_DOC_CHARS;
  try {
    if (settings.dryRun) return printPlan(todo, docs.source, maxDocChars, lexical, settings, ctx);
    const runtime = lexical ? null : makeRuntime(settings, ctx);
    try {
      const judge: ReportJudge = runtime
        ? new LlmReportJudge(runtime.provider(settings.judge!), { maxDocChars })
        : new LexicalJudge();
      const inputsSha256 = hashInputs(io.cwd, [...o.runs, o.nuggets, o.requests]);
      checkResumeMeta(
        `${outPath}.meta.json`,
        {
          tool: 'citegeist',
          version: VERSION,
          method: 'argue-judge',
          judge: judge.id,
          nuggets: o.nuggets,
          requests: o.requests,
          docs: o.docs,
          docs_found: docs.source.description,
          limit: o.limit ?? 'per request',
          length_mode: lengthMode,
          max_doc_chars: lexical ? null : maxDocChars,
          // Unverified support counts differently with the flag: scores with and without it differ.
          trust_unlocated_evidence: o.trustUnlocatedEvidence === true,
          inputs_sha256: inputsSha256,
        },
        // A resumed run may add documents (to retry citations that were not found) or runs.
        ['inputs_sha256', 'docs_found'],
      );
      await runtime?.useRun?.({
        run_id: sha256Hex(canonicalJson(['argue-judge', judge.id, inputsSha256])).slice(0, 16),
        label: `argue judge ${judge.id}`,
        kind: 'judgments',
      });
      const trust = o.trustUnlocatedEvidence === true;
      const failed = await judgeAll(
        todo,
        judge,
        docs.source,
        outPath,
        { concurrency: settings.concurrency, trust },
        ctx,
        runtime,
      );
      const kept = prepared.inputs
        .map((i) => reportKey(i.report.runId, i.report.topicId))
        .filter((k) => done.has(k));
      const evidence = sumEvidence([...kept.map((k) => done.get(k)), ...failed.evidence]);
      reorderRunFile(outPath, {
        command: 'citegeist reports judge',
        key: (line) => {
          const meta = (line.report as { metadata?: { run_id?: unknown; topic_id?: unknown } } | undefined)
            ?.metadata;
          return meta?.run_id !== undefined && meta.topic_id !== undefined
            ? reportKey(String(meta.run_id), String(meta.topic_id))
            : undefined;
        },
        order: prepared.inputs.map((i) => reportKey(i.report.runId, i.report.topicId)),
      });
      const summary = {
        reports: prepared.inputs.length,
        judged: todo.length,
        resumed: prepared.inputs.length - todo.length,
        skipped_reports: prepared.skipped.length,
        skipped_lines: skippedLines,
        reports_with_failures: failed.reports,
        failed_judgments: failed.judgments,
        truncated_sentences: failed.truncated,
        evidence,
        trust_unlocated_evidence: trust,
        out: o.out,
        judge_card: card,
      };
      if (ctx.globals().json) io.out(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        io.out(
          `judged ${summary.judged} reports with ${judge.id} (${summary.resumed} already in ${o.out}); ` +
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
        if (failed.reports > 0) io.out('rerun the same command to retry the reports with failed judgments\n');
      }
      if (failed.reports > 0 || summary.skipped_reports + skippedLines > 0) ctx.setExitCode(1);
    } finally {
      runtime?.close();
    }
  } finally {
    docs.close();
  }
}

async function judgeAll(
  todo: JudgeReportInput[],
  judge: ReportJudge,
  docs: CitedDocumentSource,
  outPath: string,
  { concurrency, trust }: { concurrency: number; trust: boolean },
  ctx: CliContext,
  runtime: FaithfulnessRuntime | null,
) {
  const appender = new JsonlAppender(outPath);
  const progress = createProgress({
    io: ctx.io,
    label: 'judge',
    total: todo.length,
    unit: 'reports',
  });
  // The judge's calls, with the tokens the server reported (none for the lexical judge).
  runtime?.onCall?.((call) => progress.call(call));
  const tally = { reports: 0, judgments: 0, truncated: 0, evidence: [] as (Evidence | undefined)[] };
  try {
    await judgeReports(
      todo,
      { judge, docs, version: VERSION, locator: new QuoteLocator(), trustUnlocatedEvidence: trust },
      {
        concurrency,
        onReport: (judged, input) => {
          appender.appendText(stringifyPythonJson(judged, { ensureAscii: false }));
          const failed = judged.citegeist?.failed ?? 0;
          tally.judgments += failed;
          tally.truncated += judged.citegeist?.truncated_sentences ?? 0;
          tally.evidence.push(judged.citegeist?.evidence);
          if (failed > 0) tally.reports++;
          progress.tick({
            ok: failed === 0,
            note: `${input.report.runId}/${input.report.topicId}`,
            ...(failed > 0 ? { problem: `${input.report.where}: ${failed} failed judgments` } : {}),
          });
        },
      },
    );
  } finally {
    progress.stop();
    appender.close();
  }
  return tally;
}

function printPlan(
  todo: JudgeReportInput[],
  docs: CitedDocumentSource,
  maxDocChars: number,
  lexical: boolean,
  settings: LlmSettings,
  ctx: CliContext,
): void {
  const plan = planJudging(todo, docs, maxDocChars);
  const estimate = lexical
    ? null
    : estimateCost(modelId(parseModelString(settings.judge!)), plan.requests, {
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
    calls: lexical ? 0 : plan.requests.length,
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
      `  ${settings.judge}: at most ${plan.requests.length} calls (uncited sentences counted at their most), ${estimate.inputTokens} input + ${estimate.outputTokens} output tokens, ${cost}\n`,
    );
  }
}
