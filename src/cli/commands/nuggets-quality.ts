import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  bankQueryId,
  CitegeistError,
  isQuestion,
  nuggetEntries,
  writeNuggetBankFile,
} from '../../core/index.js';
import {
  GENERAL_QUALITIES_SYSTEM,
  PERSONALIZATION_SYSTEM,
  type QualityRecord,
  type QualityRequest,
  qualityPrompt,
  StepLog,
  scoreBankQuality,
  unitKey,
  VITALITY_SYSTEM,
} from '../../generate/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import { checkResumeMeta } from '../resume-meta.js';
import {
  callTick,
  estimateCalls,
  fittedEmbed,
  modelCreator,
  nuggetsCommand,
  requireModel,
} from './nuggets-inputs.js';
import { readBankFiles } from './nuggets-select.js';
import { parseNumberOption } from './option-parsers.js';
import { hashInputs, readRequests } from './reports-inputs.js';

interface QualityFlags extends LlmFlags {
  bank: string;
  out?: string;
  requests?: string;
  embedder: string;
  coverageCosine: number;
  withParaphrases: boolean;
}

/** The request a bank serves: from --requests, else the `full_query` the generator writes. */
function requestOf(
  bank: { full_query?: unknown },
  requests: Map<string, QualityRequest> | null,
  id: string,
): QualityRequest {
  const fromFile = requests?.get(id);
  if (fromFile) return fromFile;
  const full = bank.full_query as { background?: unknown; problem_statement?: unknown } | undefined;
  if (full && (typeof full.background === 'string' || typeof full.problem_statement === 'string')) {
    return {
      background: typeof full.background === 'string' ? full.background : null,
      problemStatement: typeof full.problem_statement === 'string' ? full.problem_statement : null,
    };
  }
  throw new CitegeistError(
    'REQUEST_NOT_FOUND',
    `The bank of request "${id}" names no background or problem statement, and --requests does not hold it.`,
    'Pass --requests <file> with this request (the personalisation criteria are judged against it).',
  );
}

export const registerNuggetsScoreQuality: RegisterCommand = (program, ctx) => {
  const command = nuggetsCommand(program)
    .command('score-quality')
    .description(
      'score the 19 quality criteria of every nugget (reading level and complexity computed, the rest judged) and bank-level diversity and coverage',
    )
    .requiredOption('--bank <path>', 'a folder of nugget bank v3 files, or one file')
    .option('--out <dir>', 'folder for the scored banks (default: rewrite the banks in place)')
    .option('--requests <file>', 'requests JSONL (default: the full_query in each bank)')
    .option(
      '--embedder <spec>',
      'embedder for the coverage figure ("default": LSA fitted on the questions of each bank)',
      'default',
    )
    .option(
      '--coverage-cosine <cos>',
      'questions at or above this cosine share a coverage cluster',
      parseNumberOption('--coverage-cosine', 0, false),
      0.8,
    )
    .option(
      '--with-paraphrases',
      "also score each nugget's paraphrases, as sub-nuggets, and count them in the bank figures (the released run's -rop; 3 calls per paraphrase)",
      false,
    );
  addLlmOptions(command).action(async (flags: QualityFlags) => {
    const { io } = ctx;
    const settings = resolveLlmSettings(flags, ctx.config(), io.cwd);
    const model = requireModel(settings.model, 'score-quality', 'judges 17 of the 19 criteria');
    const banks = readBankFiles(resolve(io.cwd, flags.bank));
    const requests = flags.requests
      ? new Map([...readRequests(io.cwd, flags.requests)].map(([id, r]) => [id, r as QualityRequest]))
      : null;
    const outDir = resolve(
      io.cwd,
      flags.out ??
        (banks.length === 1 && flags.bank.match(/\.json(\.gz)?$/) ? join(flags.bank, '..') : flags.bank),
    );
    const log = new StepLog<QualityRecord>(join(outDir, '.state', 'quality.jsonl'), (r) =>
      unitKey(r.request_id, r.question),
    );
    try {
      const work = banks.map(({ file, loaded }) => {
        const id = bankQueryId(loaded.bank);
        const nuggets = nuggetEntries(loaded.bank).flatMap(([, n]) => (isQuestion(n) ? [n] : []));
        const paraphrases = flags.withParaphrases
          ? nuggets.flatMap((n) => (Array.isArray(n.metadata?.paraphrases) ? n.metadata.paraphrases : []))
          : [];
        const questions = [
          ...new Set([
            ...nuggets.map((n) => n.question),
            ...paraphrases.filter((p) => typeof p === 'string'),
          ]),
        ];
        return {
          file,
          bank: loaded.bank,
          id,
          request: requestOf(loaded.bank, requests, id),
          todo: questions.filter((q) => !log.get(unitKey(id, q))),
        };
      });
      const todo = work.reduce((n, w) => n + w.todo.length, 0);
      if (settings.dryRun) {
        const calls = work.flatMap((w) =>
          w.todo.flatMap((q) =>
            [VITALITY_SYSTEM, PERSONALIZATION_SYSTEM, GENERAL_QUALITIES_SYSTEM].map((s) => ({
              messages: qualityPrompt(s, q, w.request),
              maxTokens: 150,
            })),
          ),
        );
        const est = estimateCalls(model, calls, settings.prices);
        io.out(
          `dry run: ${todo} nuggets to score (3 calls each): ${est.calls} calls, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.cost}\n`,
        );
        return;
      }
      mkdirSync(outDir, { recursive: true });
      checkResumeMeta(
        join(outDir, 'score-quality.meta.json'),
        {
          tool: 'citegeist',
          version: VERSION,
          method: 'dogmatiq-quality',
          model,
          embedder: flags.embedder,
          coverage_cosine: flags.coverageCosine,
          with_paraphrases: flags.withParaphrases,
          inputs_sha256: hashInputs(io.cwd, [flags.bank]),
        },
        ['inputs_sha256'],
      );
      const runtime = createLlmRuntime(settings, io.env);
      const creator = modelCreator(model);
      const progress = createProgress({ io, label: 'quality', total: todo * 3, unit: 'calls' });
      let failed = 0;
      let unreadable = 0;
      try {
        const llm = runtime.provider(model);
        for (const w of work) {
          const result = await scoreBankQuality(w.bank, {
            requestId: w.id,
            request: w.request,
            llm,
            log,
            creator,
            coverageCosine: flags.coverageCosine,
            withParaphrases: flags.withParaphrases,
            onCall: callTick(progress, w.id),
            embed: fittedEmbed(flags.embedder, io.env),
          });
          writeNuggetBankFile(join(outDir, basename(w.file)), w.bank);
          failed += result.failedCalls.length;
          unreadable += result.unreadable;
          io.out(
            `${w.id}: ${result.scored} nuggets scored${result.failedCalls.length ? `, ${result.failedCalls.length} not (failed calls)` : ''}${result.unreadable ? `, ${result.unreadable} with unreadable judgments` : ''}\n`,
          );
        }
      } finally {
        progress.stop();
        runtime.close();
      }
      io.out(
        `scored banks: ${flags.out ?? flags.bank}${failed ? ' (rerun to retry the failed calls)' : ''}\n`,
      );
      if (failed > 0 || unreadable > 0) ctx.setExitCode(1);
    } finally {
      log.close();
    }
  });
};
