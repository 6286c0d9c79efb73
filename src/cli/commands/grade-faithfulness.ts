import type { Command } from 'commander';
import { CitegeistError } from '../../core/index.js';
import { DEFAULT_HARM_EXPONENT, DEFAULT_HARM_RUBRIC } from '../../grade/index.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import type { RuntimeFactory } from '../setup/faithfulness-runtime.js';
import { type FaithfulnessOptions, runGradeFaithfulness } from '../setup/grade-faithfulness-run.js';
import { gradeGroup } from '../setup/grade-group.js';
import { addJudgeCardOptions } from '../setup/judge-card-options.js';
import { countOption, numberOption } from '../setup/option-parsers.js';

/** Registers `citegeist grade faithfulness` (VETSCORE, METHODS §3) on the `grade` command. */
export function gradeFaithfulnessCommand(runtime: RuntimeFactory): RegisterCommand {
  return (program, ctx) => {
    const command = gradeGroup(program, ctx)
      .command('faithfulness')
      .description('risk-weighted claim-level faithfulness of long cited answers (VETSCORE)')
      .requiredOption(
        '--answers <file>',
        'answers: {id, question, answer, sources} JSONL, run rows or ResearchQA rows',
      )
      .option('--harm-judge <model>', 'harm-potential judge (default: --judge)')
      .option('--decomposer <model>', 'claim decomposer (default: --judge)')
      .option(
        '--p <number>',
        'harm exponent p (0 = verification only)',
        numberOption('--p', { min: 0 }),
        DEFAULT_HARM_EXPONENT,
      )
      .option('--joint', 'ablation: one prompt for verdict and harm', false)
      .option(
        '--repeats <k>',
        'run the judges k times (majority verdict, median harm)',
        countOption('--repeats'),
        1,
      )
      .option(
        '--rubric <name|file>',
        'harm rubric: veterinary, human-medicine, generic or a file',
        DEFAULT_HARM_RUBRIC,
      )
      .option(
        '--trust-unlocated-evidence',
        'count "supported" verdicts whose evidence quote is not in the cited excerpts as supported (default: unsupported)',
      )
      .option('--out <file>', 'per-answer results JSONL (resumable by answer id; required)')
      .option(
        '--label <name>',
        "the results' name (default: the verifier and the settings that differ from the defaults)",
      );
    addJudgeCardOptions(command, 'verifier (meta-eval judge --set check-covid)');
    addLlmOptions(command, { model: false, judge: true })
      .exitOverride()
      .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) })
      .action(async (options: FaithfulnessOptions, self: Command) => {
        const { out, ...flags } = self.opts<LlmFlags & { out?: string }>();
        if (!out) {
          throw new CitegeistError(
            'OPTION_REQUIRED',
            'grade faithfulness needs --out <file>.',
            'Pass --out results.jsonl.',
          );
        }
        const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
        await runGradeFaithfulness(
          { ...options, out, trustUnlocatedEvidence: options.trustUnlocatedEvidence === true },
          settings,
          runtime,
          ctx,
        );
      });
  };
}

export const registerGradeFaithfulness = gradeFaithfulnessCommand((settings, ctx) =>
  createLlmRuntime(settings, ctx.io.env),
);
