import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ExtractiveReportWriter,
  LlmReportWriter,
  type ReportWriter,
  reportPrompt,
  reportRunLine,
  retrievedPassages,
} from '../../answer/index.js';
import { CitegeistError, canonicalJson, sha256Hex } from '../../core/index.js';
import { parseReportRun, requestText } from '../../formats/index.js';
import { JsonlAppender, readTextFile } from '../../io/index.js';
import { CHARS_PER_TOKEN, estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import { putInInputOrder } from '../queue-runtime.js';
import { checkResumeMeta } from '../resume-meta.js';
import { MODES, openRetriever, parseMode, RECIPES_OPTION } from '../retrieval-setup.js';
import { openRetrievedRun, RETRIEVED_OPTION } from '../retrieved-run.js';
import { countOption } from './option-parsers.js';
import { readRequests, reportsCommand } from './reports-inputs.js';
import { parseLengthMode } from './reports-validate.js';

interface GenerateFlags extends LlmFlags {
  requests: string;
  corpus?: string;
  mode: string;
  k: number;
  out: string;
  runId?: string;
  teamId: string;
  limit: number;
  lengthMode: string;
  embedder?: string;
  recipes?: string;
  retrieved?: string;
}

/** Topics already written to the run file under this run id (resume). */
function writtenTopics(path: string, runId: string): Set<string> {
  if (!existsSync(path)) return new Set();
  const read = parseReportRun(readTextFile(path, 'run file'), path);
  return new Set(read.reports.filter((r) => r.runId === runId).map((r) => r.topicId));
}

/** The topic of a run line of this run (lines of other runs in the file keep their place after). */
function reportTopic(line: Record<string, unknown>, runId: string): string | undefined {
  const meta = line.metadata as { run_id?: unknown; topic_id?: unknown } | undefined;
  return meta?.run_id === runId && meta.topic_id !== undefined ? String(meta.topic_id) : undefined;
}

/** `citegeist reports generate`: a RAGTIME-format run over a citegeist corpus. */
export const registerReportsGenerate: RegisterCommand = (program, ctx) => {
  const command = reportsCommand(program)
    .command('generate')
    .description(
      'write a report per request over your corpus (RAGTIME run: cited passages, within the length limit); resumable',
    )
    .requiredOption(
      '--requests <file>',
      'requests JSONL (request_id, title, background, problem_statement, limit)',
    )
    .requiredOption('--out <file>', 'run JSONL (appended per request; rerun to resume)')
    .option(...CORPUS_OPTION)
    .option('--mode <mode>', `retrieval: ${MODES.join(', ')}`, 'bm25')
    .option('-k <n>', 'passages retrieved per request', countOption('-k'), 20)
    .option('--run-id <id>', 'run id (default: citegeist-<model>-<mode>)')
    .option('--team-id <id>', 'team id in the run metadata', 'citegeist')
    .option('--limit <n>', 'length limit for requests that set none', countOption('--limit'), 2000)
    .option('--length-mode <mode>', 'count the limit in NFKC characters or words', 'characters')
    .option('--embedder <spec>', 'embedder (must be the one the index was built with)')
    .option(...RECIPES_OPTION)
    .option(...RETRIEVED_OPTION);
  addLlmOptions(command).action(async (flags: GenerateFlags) => {
    const { io } = ctx;
    const settings = resolveLlmSettings(flags, ctx.config(), io.cwd);
    const model = settings.model ?? 'extractive';
    const mode = parseMode(flags.mode);
    const lengthMode = parseLengthMode(flags.lengthMode);
    const requests = [...readRequests(io.cwd, flags.requests).values()];
    if (requests.length === 0)
      throw new CitegeistError('NO_ROWS', `${flags.requests} holds no request.`, 'Add one request per line.');
    const runId = flags.runId ?? `citegeist-${model.replace(/[^\w.-]+/g, '_')}-${mode}`;
    const outPath = resolve(io.cwd, flags.out);
    const done = writtenTopics(outPath, runId);
    const todo = requests.filter((r) => !done.has(r.id));
    const opened = await openRetriever(ctx, {
      mode,
      corpus: flags.corpus,
      embedder: flags.embedder,
      recipes: flags.recipes,
    });
    // --retrieved: another engine's run ranks the passages (topics = request ids).
    const byText = new Map(requests.map((r) => [requestText(r), r.id]));
    const retriever = flags.retrieved
      ? openRetrievedRun(ctx, flags.retrieved, flags.corpus, (q) => byText.get(q)).retriever
      : opened.retriever;
    const retrieval = { retriever, passages: opened.passages, k: flags.k };
    if (settings.dryRun) {
      const plan = [];
      for (const request of model === 'extractive' ? [] : todo) {
        const input = { request, limit: request.limit ?? flags.limit, lengthMode };
        plan.push({ messages: reportPrompt(input, await retrievedPassages(retrieval, request)) });
      }
      // A report of `limit` characters is about limit / 4 tokens; JSON and citations about double it.
      const expected = Math.ceil((flags.limit / CHARS_PER_TOKEN) * 2);
      const est =
        model === 'extractive'
          ? null
          : estimateCost(modelId(parseModelString(model)), plan, {
              prices: settings.prices,
              expectedOutputTokens: expected,
            });
      const result = {
        run_id: runId,
        requests: todo.length,
        resumed: done.size,
        model,
        calls: plan.length,
        ...(est
          ? { input_tokens: est.inputTokens, output_tokens: est.outputTokens, cost_usd: est.costUsd }
          : {}),
      };
      if (ctx.globals().json) io.out(`${JSON.stringify(result, null, 2)}\n`);
      else {
        io.out(
          `dry run: ${todo.length} reports to write (${done.size} already in ${flags.out}), retrieval ${retriever.id} k=${flags.k}\n`,
        );
        io.out(
          est
            ? `  ${model}: ${plan.length} calls, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.costUsd === null ? 'no price' : `$${est.costUsd.toFixed(4)}`}\n`
            : '  extractive: no model calls\n',
        );
      }
      return;
    }
    const runtime = model === 'extractive' ? null : createLlmRuntime(settings, io.env);
    try {
      const writer: ReportWriter = runtime
        ? new LlmReportWriter(runtime.provider(model), retrieval)
        : new ExtractiveReportWriter(retrieval);
      checkResumeMeta(`${outPath}.meta.json`, {
        tool: 'citegeist',
        version: VERSION,
        method: 'report-generate',
        run_id: runId,
        model: writer.id,
        retrieval: retriever.id,
        k: flags.k,
        index_created: opened.saved.manifest.createdAt,
        default_limit: flags.limit,
        length_mode: lengthMode,
        requests: flags.requests,
      });
      await runtime?.useRun({
        run_id: sha256Hex(canonicalJson([runId, writer.id, retriever.id, flags.k, lengthMode])).slice(0, 16),
        label: runId,
        kind: 'reports',
      });
      const appender = new JsonlAppender(outPath);
      const progress = createProgress({
        io,
        label: 'generate',
        total: todo.length,
        unit: 'reports',
      });
      // The writer's calls, with the tokens the server reported (none for the extractive writer).
      runtime?.onCall((call) => progress.call(call));
      let failed = 0;
      // One request at a time locally; on a queue, as many as there may be calls in flight.
      const lanes = settings.queue ? settings.concurrency : 1;
      let next = 0;
      const lane = async () => {
        while (next < todo.length) {
          const request = todo[next++]!;
          const draft = await writer.write({ request, limit: request.limit ?? flags.limit, lengthMode });
          if (!draft.ok) {
            failed++;
            progress.tick({ ok: false, problem: `request ${request.id}: ${draft.reason}` });
            continue;
          }
          const line = reportRunLine(draft.sentences, { teamId: flags.teamId, runId, topicId: request.id });
          appender.appendText(stringifyPythonJson(line, { ensureAscii: false }));
          progress.tick({ ok: true, note: request.id });
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(lanes, Math.max(1, todo.length)) }, lane));
      } finally {
        progress.stop();
        appender.close();
      }
      putInInputOrder(settings, outPath, {
        command: 'citegeist reports generate',
        key: (line) => reportTopic(line, runId),
        order: requests.map((r) => r.id),
      });
      const summary = {
        run_id: runId,
        model: writer.id,
        requests: requests.length,
        written: todo.length - failed,
        resumed: done.size,
        failed,
        out: flags.out,
      };
      if (ctx.globals().json) io.out(`${JSON.stringify(summary, null, 2)}\n`);
      else
        io.out(
          `run ${runId}: ${summary.written} reports written, ${done.size} already in ${flags.out}, ${failed} failed (rerun to retry)\n`,
        );
      if (failed > 0) ctx.setExitCode(1);
    } finally {
      runtime?.close();
    }
  });
};
