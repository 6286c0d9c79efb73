import { resolve } from 'node:path';
import {
  DEFAULT_REPORT_K,
  DEFAULT_REPORT_LIMIT,
  ExtractiveReportWriter,
  generateReportRun,
  LlmReportWriter,
  type ReportWriter,
} from '../../answer/index.js';
import { CitegeistError, canonicalJson, sha256Hex } from '../../core/index.js';
import { requestText } from '../../formats/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createProgress, type Progress } from '../progress.js';
import { openRetrievedRun, RETRIEVED_OPTION } from '../retrieved-run.js';
import { countOption } from '../setup/option-parsers.js';
import { readRequests, reportsCommand } from '../setup/report-runs-inputs.js';
import { printReportRunPlan } from '../setup/report-runs-plan.js';
import { MODES, openRetriever, parseMode, RECIPES_OPTION } from '../setup/retrieval-options.js';
import { parseLengthMode } from './report-runs-validate.js';

interface GenerateFlags extends LlmFlags {
  requests: string;
  out: string;
  mode: string;
  k: number;
  teamId: string;
  limit: number;
  lengthMode: string;
  corpus?: string;
  runId?: string;
  embedder?: string;
  recipes?: string;
  retrieved?: string;
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
    .option('-k <n>', 'passages retrieved per request', countOption('-k'), DEFAULT_REPORT_K)
    .option('--run-id <id>', 'run id (default: citegeist-<model>-<mode>)')
    .option('--team-id <id>', 'team id in the run metadata', 'citegeist')
    .option(
      '--limit <n>',
      'length limit for requests that set none',
      countOption('--limit'),
      DEFAULT_REPORT_LIMIT,
    )
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
    const { corpus, embedder, recipes } = flags;
    // --retrieved: another engine's run ranks the passages (topics = request ids); the index is
    // then opened once, to resolve its ids, and citegeist's own retrieval is not set up.
    const byText = new Map(requests.map((r) => [requestText(r), r.id]));
    const opened = flags.retrieved
      ? openRetrievedRun(ctx, flags.retrieved, corpus, (q) => byText.get(q))
      : await openRetriever(ctx, { mode, corpus, embedder, recipes });
    const { retriever } = opened;
    const indexManifest = 'saved' in opened ? opened.saved.manifest : opened.manifest;
    const retrieval = { retriever, passages: opened.passages, k: flags.k };
    if (settings.dryRun) {
      const plan = { requests, out: flags.out, outPath, runId, model, retrieval, limit: flags.limit };
      return printReportRunPlan(ctx, { ...plan, lengthMode, settings });
    }
    const runtime = model === 'extractive' ? null : createLlmRuntime(settings, io.env);
    try {
      const writer: ReportWriter = runtime
        ? new LlmReportWriter(runtime.provider(model), retrieval)
        : new ExtractiveReportWriter(retrieval);
      const queueRun = canonicalJson([runId, writer.id, retriever.id, flags.k, lengthMode]);
      await runtime?.useRun({ run_id: sha256Hex(queueRun).slice(0, 16), label: runId, kind: 'reports' });
      let progress: Progress | undefined;
      const result = await generateReportRun({
        path: outPath,
        settings: {
          runId,
          teamId: flags.teamId,
          writer: writer.id,
          retrieval: retriever.id,
          k: flags.k,
          indexCreated: indexManifest.createdAt,
          defaultLimit: flags.limit,
          lengthMode,
          requests: flags.requests,
          version: VERSION,
        },
        write: {
          requests,
          writer,
          // One request at a time locally; on a queue, as many as there may be calls in flight.
          concurrency: settings.queue ? settings.concurrency : 1,
          onReport: (request, outcome) =>
            progress?.tick(
              outcome.ok
                ? { ok: true, note: request.id }
                : { ok: false, problem: `request ${request.id}: ${outcome.reason}` },
            ),
        },
        onStart: (total) => {
          progress = createProgress({ io, label: 'generate', total, unit: 'reports' });
          // The writer's calls, with the tokens the server reported (none for the extractive writer).
          runtime?.onCall((call) => progress?.call(call));
        },
      }).finally(() => progress?.stop());
      const { written, failed, resumed } = result;
      const summary = {
        run_id: runId,
        model: writer.id,
        requests: requests.length,
        written,
        resumed,
        failed,
      };
      io.out(
        ctx.globals().json
          ? `${JSON.stringify({ ...summary, out: flags.out }, null, 2)}\n`
          : `run ${runId}: ${written} reports written, ${resumed} already in ${flags.out}, ${failed} failed (rerun to retry)\n`,
      );
      if (failed > 0) ctx.setExitCode(1);
    } finally {
      runtime?.close();
    }
  });
};
