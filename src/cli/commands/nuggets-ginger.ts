import { basename, join, resolve } from 'node:path';
import { bankQueryId, writeNuggetBankFile } from '../../formats/index.js';
import {
  type ClusterSummary,
  clusterSummaryPrompt,
  gingerBank,
  gingerManifest,
  itemsInput,
  modelCreator,
  pendingGingerSummaries,
  readBankFiles,
  StepState,
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
  estimateCalls,
  nuggetsCommand,
  refuseOutputIsInput,
  requireNuggetModel,
  stepProgress,
} from '../setup/nuggets-inputs.js';
import { countOption } from '../setup/option-parsers.js';
import { noteTakeovers } from '../takeover-note.js';

interface GingerFlags extends LlmFlags {
  bank: string;
  out: string;
  topK: number;
  label?: string;
}

export const registerNuggetsGinger: RegisterCommand = (program, ctx) => {
  const command = nuggetsCommand(program)
    .command('ginger')
    .description(
      "baseline for DoGMaTiQ's ablation: a GINGER-style bank of cluster summaries (pseudo-nuggets) from a bank's top paraphrase clusters",
    )
    .requiredOption('--bank <path>', 'banks from `nuggets generate` (a folder or one file)')
    .requiredOption('--out <dir>', 'folder for the GINGER-style banks')
    .option(
      '--top-k <n>',
      'clusters summarised per bank (most paraphrases first)',
      countOption('--top-k'),
      20,
    )
    .option('--label <name>', "the run's name (default: the model, and the top-k when not 20)");
  addLlmOptions(command).action(async (flags: GingerFlags) => {
    const { io } = ctx;
    const settings = resolveLlmSettings(flags, ctx.config(), io.cwd);
    const model = requireNuggetModel(settings.model, 'ginger', 'writes its summaries');
    const banks = readBankFiles(resolve(io.cwd, flags.bank));
    const outDir = resolve(io.cwd, flags.out);
    refuseOutputIsInput(
      banks.map((b) => b.file),
      outDir,
      flags.out,
    );
    const state = (settings.dryRun ? StepState.inspect : StepState.open)({
      dir: outDir,
      name: 'ginger',
      manifest: gingerManifest({
        model: modelId(parseModelString(model)),
        label: flags.label,
        version: VERSION,
        topK: flags.topK,
        banks: itemsInput(
          new Map(banks.map(({ loaded }) => [bankQueryId(loaded.bank), loaded.bank])),
          flags.bank,
        ),
      }),
      command: 'citegeist nuggets ginger',
      ownsBanks: true,
    });
    let runtime: LlmRuntime | null = null;
    try {
      const log = state.log<ClusterSummary>('summaries', (r) =>
        stepKey(r.request_id, r.question, ...r.answers),
      );
      if (settings.dryRun) {
        // Only the summaries a run would still make (a resume skips the logged ones).
        const calls = banks.flatMap(({ loaded }) =>
          pendingGingerSummaries(loaded.bank, flags.topK, log).map((c) => ({
            messages: clusterSummaryPrompt(c.question, c.answers),
            maxTokens: 60,
          })),
        );
        const est = estimateCalls(model, calls, settings.prices);
        io.out(
          `dry run: ${est.calls} summaries to write, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.cost}\n`,
        );
        return;
      }
      noteTakeovers(io, state.tookOverFrom);
      runtime = createLlmRuntime(settings, io.env);
      await runtime.useRun(state.manifest);
      // The first run's date, so a resumed run writes the same bytes.
      const creator = modelCreator(
        model,
        'citegeist ginger-style cluster summaries',
        new Date(state.manifest.created_at),
      );
      const progress = stepProgress(io, runtime)('ginger', banks.length, 'banks');
      let failed = 0;
      try {
        const llm = runtime.provider(model);
        for (const { file, loaded } of banks) {
          const r = await gingerBank(loaded.bank, { llm, log, creator, topK: flags.topK });
          if ('failed' in r) {
            failed++;
            progress.tick({ ok: false, problem: `${basename(file)}: ${r.failed[0]}` });
            continue;
          }
          writeNuggetBankFile(join(outDir, basename(file)), r.bank);
          progress.tick({ ok: true, note: basename(file) });
        }
      } finally {
        progress.stop();
      }
      io.out(
        `GINGER-style banks of "${state.manifest.label}": ${flags.out} (${banks.length - failed} written${failed ? `, ${failed} with failed calls: rerun to retry` : ''}; how: ginger.meta.json)\n`,
      );
      if (failed) ctx.setExitCode(1);
    } finally {
      state.close();
      runtime?.close();
    }
  });
};
