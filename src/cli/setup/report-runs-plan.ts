import { existsSync } from 'node:fs';
import { type RetrievalContext, reportPrompt, retrievedPassages } from '../../answer/index.js';
import { type LengthMode, parseReportRun, type ReportRequest } from '../../formats/index.js';
import { readTextFile } from '../../io/index.js';
import { CHARS_PER_TOKEN, estimateCost, modelId, parseModelString } from '../../llm/index.js';
import type { CliContext } from '../context.js';
import type { LlmSettings } from '../llm-options.js';

/** Topics already written to the run file under this run id (what a resume would skip). */
export function writtenTopics(path: string, runId: string): Set<string> {
  if (!existsSync(path)) return new Set();
  const read = parseReportRun(readTextFile(path, 'run file'), path);
  return new Set(read.reports.filter((r) => r.runId === runId).map((r) => r.topicId));
}

/** `reports generate --dry-run`: the reports left to write and what their model calls would cost. */
export async function printReportRunPlan(
  ctx: CliContext,
  o: {
    requests: readonly ReportRequest[];
    out: string;
    outPath: string;
    runId: string;
    model: string;
    retrieval: RetrievalContext;
    limit: number;
    lengthMode: LengthMode;
    settings: LlmSettings;
  },
): Promise<void> {
  const done = writtenTopics(o.outPath, o.runId);
  const todo = o.requests.filter((r) => !done.has(r.id));
  const plan = [];
  for (const request of o.model === 'extractive' ? [] : todo) {
    const input = { request, limit: request.limit ?? o.limit, lengthMode: o.lengthMode };
    plan.push({ messages: reportPrompt(input, await retrievedPassages(o.retrieval, request)) });
  }
  // A report of `limit` characters is about limit / 4 tokens; JSON and citations about double it.
  const expected = Math.ceil((o.limit / CHARS_PER_TOKEN) * 2);
  const est =
    o.model === 'extractive'
      ? null
      : estimateCost(modelId(parseModelString(o.model)), plan, {
          prices: o.settings.prices,
          expectedOutputTokens: expected,
        });
  const result = {
    run_id: o.runId,
    requests: todo.length,
    resumed: done.size,
    model: o.model,
    calls: plan.length,
    ...(est ? { input_tokens: est.inputTokens, output_tokens: est.outputTokens, cost_usd: est.costUsd } : {}),
  };
  if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
  ctx.io.out(
    `dry run: ${todo.length} reports to write (${done.size} already in ${o.out}), retrieval ${o.retrieval.retriever.id} k=${o.retrieval.k}\n`,
  );
  ctx.io.out(
    est
      ? `  ${o.model}: ${plan.length} calls, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.costUsd === null ? 'no price' : `$${est.costUsd.toFixed(4)}`}\n`
      : '  extractive: no model calls\n',
  );
}
