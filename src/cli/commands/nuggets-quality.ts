import { basename, dirname, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { bankQueryId, isQuestion, nuggetEntries, writeNuggetBankFile } from '../../formats/index.js';
import {
  GENERAL_QUALITIES_SYSTEM,
  itemsInput,
  PERSONALIZATION_SYSTEM,
  type QualityRecord,
  type QualityRequest,
  qualityManifest,
  qualityPrompt,
  StepState,
  scoreBankQuality,
  stepKey,
  VITALITY_SYSTEM,
} from '../../generate/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmRuntime,
  resolveLlmSettings,
} from '../llm-options.js';
import {
  callTick,
  estimateCalls,
  fittedEmbed,
  modelCreator,
  nuggetsCommand,
  requireNuggetModel,
  stepProgress,
} from '../setup/nuggets-inputs.js';
import { numberOption } from '../setup/option-parsers.js';
import { readRequests } from '../setup/report-runs-inputs.js';
import { noteTakeovers } from '../takeover-note.js';
import { readBankFiles } from './nuggets-select.js';

interface QualityFlags extends LlmFlags {
  bank: string;
  out?: string;
  requests?: string;
  embedder: string;
  coverageCosine: number;
  withParaphrases: boolean;
  label?: string;
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
    requests ? 'INVALID_INPUT' : 'OPTION_REQUIRED',
    `The bank of request "${id}" names no background or problem statement, and ${requests ? '--requests does not hold it' : 'no --requests was given'}.`,
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
      'embedder for the coverage figure (the built-in one is LSA fitted on the questions of each bank)',
      'default',
    )
    .option(
      '--coverage-cosine <cos>',
      'questions at or above this cosine share a coverage cluster',
      numberOption('--coverage-cosine', { min: 0, max: 1 }),
      0.8,
    )
    .option(
      '--with-paraphrases',
      "also score each nugget's paraphrases, as sub-nuggets, and count them in the bank figures (the released run's -rop; 3 calls per paraphrase)",
      false,
    )
    .option(
      '--label <name>',
      "the run's name (default: the model, and the settings that differ from the defaults)",
    );
  addLlmOptions(command).action(async (flags: QualityFlags) => {
    const { io } = ctx;
    const settings = resolveLlmSettings(flags, ctx.config(), io.cwd);
    const model = requireNuggetModel(settings.model, 'score-quality', 'judges 17 of the 19 criteria');
    const banks = readBankFiles(resolve(io.cwd, flags.bank));
    const requests = flags.requests
      ? new Map([...readRequests(io.cwd, flags.requests)].map(([id, r]) => [id, r as QualityRequest]))
      : null;
    const outDir = resolve(
      io.cwd,
      flags.out ??
        (banks.length === 1 && flags.bank.match(/\.json(\.gz)?$/) ? join(flags.bank, '..') : flags.bank),
    );
    const work = banks.map(({ file, loaded }) => {
      const id = bankQueryId(loaded.bank);
      const nuggets = nuggetEntries(loaded.bank).flatMap(([, n]) => (isQuestion(n) ? [n] : []));
      const paraphrases = flags.withParaphrases
        ? nuggets.flatMap((n) => (Array.isArray(n.metadata?.paraphrases) ? n.metadata.paraphrases : []))
        : [];
      const questions = [
        ...new Set([...nuggets.map((n) => n.question), ...paraphrases.filter((p) => typeof p === 'string')]),
      ];
      return { file, bank: loaded.bank, id, request: requestOf(loaded.bank, requests, id), questions };
    });
    // What is judged (each bank's request and questions), not the scores a run in place adds.
    const banksInput = itemsInput(
      new Map(work.map((w) => [w.id, { request: w.request, questions: w.questions }])),
      flags.bank,
    );
    const stateOptions = {
      dir: outDir,
      name: 'score-quality',
      manifest: qualityManifest({
        model: modelId(parseModelString(model)),
        label: flags.label,
        version: VERSION,
        embedder: flags.embedder,
        coverageCosine: flags.coverageCosine,
        withParaphrases: flags.withParaphrases,
        banks: banksInput,
      }),
      command: 'citegeist nuggets score-quality',
      // In place the banks are the inputs; in another folder they are this command's outputs, and
      // a folder holding banks it did not write is refused.
      ownsBanks: banks.every((b) => dirname(b.file) !== outDir),
    };
    const state = settings.dryRun ? StepState.inspect(stateOptions) : StepState.open(stateOptions);
    const log = state.log<QualityRecord>('quality', (r) => stepKey(r.request_id, r.question));
    const todo = work.flatMap((w) =>
      w.questions.filter((q) => !log.get(stepKey(w.id, q))).map((q) => ({ w, q })),
    );
    if (settings.dryRun) {
      const calls = todo.flatMap(({ w, q }) =>
        [VITALITY_SYSTEM, PERSONALIZATION_SYSTEM, GENERAL_QUALITIES_SYSTEM].map((s) => ({
          messages: qualityPrompt(s, q, w.request),
          maxTokens: 150,
        })),
      );
      const est = estimateCalls(model, calls, settings.prices);
      io.out(
        `dry run: ${todo.length} nuggets to score (3 calls each): ${est.calls} calls, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.cost}\n`,
      );
      return;
    }
    let runtime: LlmRuntime | null = null;
    try {
      runtime = createLlmRuntime(settings, io.env);
      const llm = runtime.provider(model);
      noteTakeovers(io, state.tookOverFrom);
      await runtime.useRun(state.manifest);
      // The first run's date, so a resumed run writes the same bytes.
      const creator = modelCreator(model, undefined, new Date(state.manifest.created_at));
      const progress = stepProgress(io, runtime)('quality', todo.length * 3, 'calls');
      let failed = 0;
      let unreadable = 0;
      try {
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
      }
      io.out(
        `scored banks of "${state.manifest.label}": ${flags.out ?? flags.bank} (how: score-quality.meta.json)${failed ? ' (rerun to retry the failed calls)' : ''}\n`,
      );
      if (failed > 0 || unreadable > 0) ctx.setExitCode(1);
    } finally {
      state.close();
      runtime?.close();
    }
  });
};
