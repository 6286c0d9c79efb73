import { dirname, join, resolve } from 'node:path';
import {
  fittedEmbed,
  modelCreator,
  type QualityRecord,
  qualityCalls,
  qualityInput,
  qualityManifest,
  qualityTodo,
  qualityWork,
  readBankFiles,
  StepState,
  scoreQualityBanks,
  stepKey,
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
  nuggetsCommand,
  requireNuggetModel,
  stepProgress,
} from '../setup/nuggets-inputs.js';
import { numberOption } from '../setup/option-parsers.js';
import { readRequests } from '../setup/report-runs-inputs.js';
import { noteTakeovers } from '../takeover-note.js';

interface QualityFlags extends LlmFlags {
  bank: string;
  out?: string;
  requests?: string;
  embedder: string;
  coverageCosine: number;
  withParaphrases: boolean;
  label?: string;
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
    const requests = flags.requests ? readRequests(io.cwd, flags.requests) : null;
    const outDir = resolve(
      io.cwd,
      flags.out ??
        (banks.length === 1 && flags.bank.match(/\.json(\.gz)?$/) ? join(flags.bank, '..') : flags.bank),
    );
    const work = qualityWork(banks, requests, flags.withParaphrases);
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
        banks: qualityInput(work, flags.bank),
      }),
      command: 'citegeist nuggets score-quality',
      // In place the banks are the inputs; in another folder they are this command's outputs, and
      // a folder holding banks it did not write is refused.
      ownsBanks: banks.every((b) => dirname(b.file) !== outDir),
    };
    const state = settings.dryRun ? StepState.inspect(stateOptions) : StepState.open(stateOptions);
    const log = state.log<QualityRecord>('quality', (r) => stepKey(r.request_id, r.question));
    const todo = qualityTodo(work, log);
    if (settings.dryRun) {
      const est = estimateCalls(model, qualityCalls(todo), settings.prices);
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
      const { failedCalls: failed, unreadable } = await scoreQualityBanks(work, outDir, {
        llm,
        log,
        creator,
        coverageCosine: flags.coverageCosine,
        withParaphrases: flags.withParaphrases,
        onCall: (id) => callTick(progress, id),
        embed: fittedEmbed(flags.embedder, io.env),
        onBank: (w, result) =>
          io.out(
            `${w.id}: ${result.scored} nuggets scored${result.failedCalls.length ? `, ${result.failedCalls.length} not (failed calls)` : ''}${result.unreadable ? `, ${result.unreadable} with unreadable judgments` : ''}\n`,
          ),
      }).finally(() => progress.stop());
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
