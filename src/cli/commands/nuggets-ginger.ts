import { mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeNuggetBankFile } from '../../core/index.js';
import {
  type ClusterSummary,
  clusterSummaryPrompt,
  gingerBank,
  StepLog,
  unitKey,
} from '../../generate/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import { checkResumeMeta } from '../resume-meta.js';
import {
  estimateCalls,
  modelCreator,
  nuggetsCommand,
  refuseOutputIsInput,
  requireModel,
} from './nuggets-inputs.js';
import { readBankFiles } from './nuggets-select.js';
import { parseIntOption } from './option-parsers.js';
import { hashInputs } from './reports-inputs.js';

interface GingerFlags extends LlmFlags {
  bank: string;
  out: string;
  topK: number;
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
      parseIntOption('--top-k', 1),
      20,
    );
  addLlmOptions(command).action(async (flags: GingerFlags) => {
    const { io } = ctx;
    const settings = resolveLlmSettings(flags, ctx.config(), io.cwd);
    const model = requireModel(settings.model, 'ginger', 'writes its summaries');
    const banks = readBankFiles(resolve(io.cwd, flags.bank));
    const outDir = resolve(io.cwd, flags.out);
    refuseOutputIsInput(
      banks.map((b) => b.file),
      outDir,
      flags.out,
    );
    const log = new StepLog<ClusterSummary>(join(outDir, '.state', 'summaries.jsonl'), (r) =>
      unitKey(r.request_id, r.question, ...r.answers),
    );
    try {
      if (settings.dryRun) {
        const calls = banks.flatMap(({ loaded }) =>
          Object.values(loaded.bank.nugget_bank ?? {})
            .slice(0, flags.topK)
            .map((n) => ({
              messages: clusterSummaryPrompt(String((n as { question?: unknown }).question ?? ''), [
                'an answer',
              ]),
              maxTokens: 60,
            })),
        );
        const est = estimateCalls(model, calls, settings.prices);
        io.out(
          `dry run: at most ${est.calls} summaries, ${est.inputTokens} input + ${est.outputTokens} output tokens, ${est.cost}\n`,
        );
        return;
      }
      mkdirSync(outDir, { recursive: true });
      checkResumeMeta(
        join(outDir, 'ginger.meta.json'),
        {
          tool: 'citegeist',
          version: VERSION,
          method: 'ginger-style-baseline',
          model,
          top_k: flags.topK,
          inputs_sha256: hashInputs(io.cwd, [flags.bank]),
        },
        ['inputs_sha256'],
      );
      const runtime = createLlmRuntime(settings, io.env);
      const creator = modelCreator(model, 'citegeist ginger-style cluster summaries');
      const progress = createProgress({ io, label: 'ginger', total: banks.length, unit: 'banks' });
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
        runtime.close();
      }
      io.out(
        `GINGER-style banks: ${flags.out} (${banks.length - failed} written${failed ? `, ${failed} with failed calls: rerun to retry` : ''})\n`,
      );
      if (failed) ctx.setExitCode(1);
    } finally {
      log.close();
    }
  });
};
