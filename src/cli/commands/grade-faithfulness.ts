import type { Command } from 'commander';
import { CitegeistError } from '../../core/index.js';
import { DEFAULT_HARM_EXPONENT, DEFAULT_HARM_RUBRIC } from '../../grade/index.js';
import type { LlmProvider } from '../../llm/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import { type FaithfulnessOptions, runGradeFaithfulness } from './grade-faithfulness-run.js';
import { parseNumberOption } from './option-parsers.js';

/** The models of one run, built from model strings with the run's policies (cache, limiter, budget). */
export interface FaithfulnessRuntime {
  provider(model: string): LlmProvider;
  close(): void;
}

/** How the command gets its runtime: the real one by default, a fake one in tests. */
export type RuntimeFactory = (settings: LlmSettings, ctx: CliContext) => FaithfulnessRuntime;

/**
 * The `grade` command, found if another module registered it (the ResearchQA grader, which has its
 * own action and options), else created. Commander checks the mandatory options of every ancestor
 * before a subcommand runs, so the parent's mandatory options are re-checked only when the parent's
 * own action runs.
 */
export function gradeCommand(program: Command): Command {
  const existing = program.commands.find((c) => c.name() === 'grade');
  if (!existing)
    return program.command('grade').description('grade answers and reports (see the subcommands)');
  const deferred = existing.options.filter((o) => o.mandatory);
  for (const option of deferred) option.makeOptionMandatory(false);
  existing.hook('preAction', (self, action) => {
    if (action !== self) return;
    for (const option of deferred) {
      if (self.getOptionValue(option.attributeName()) === undefined) {
        self.error(`error: required option '${option.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
      }
    }
  });
  return existing;
}

/**
 * A parent command parses the options it knows wherever they appear, so shared flags given after
 * `faithfulness` (`--judge`, `--out`, `--concurrency`, …) may land on `grade`: merge them back.
 */
function sharedFlags(command: Command): LlmFlags & { out?: string } {
  const own = command.opts<LlmFlags & { out?: string }>();
  const parent = (command.parent?.opts() ?? {}) as LlmFlags & { out?: string };
  const pick = <K extends 'judge' | 'concurrency' | 'budget' | 'out'>(k: K) => own[k] ?? parent[k];
  const flags: LlmFlags & { out?: string } = {
    dryRun: Boolean(own.dryRun || parent.dryRun),
    cache: own.cache !== false && parent.cache !== false,
    cacheOnly: Boolean(own.cacheOnly || parent.cacheOnly),
  };
  for (const k of ['judge', 'concurrency', 'budget', 'out'] as const) {
    const v = pick(k);
    if (v !== undefined) flags[k] = String(v);
  }
  return flags;
}

/** Registers `citegeist grade faithfulness` (VETSCORE, METHODS §3) on the `grade` command. */
export function gradeFaithfulnessCommand(runtime: RuntimeFactory): RegisterCommand {
  return (program, ctx) => {
    const command = gradeCommand(program)
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
        parseNumberOption('--p', 0, false),
        DEFAULT_HARM_EXPONENT,
      )
      .option('--joint', 'ablation: one prompt for verdict and harm', false)
      .option(
        '--repeats <k>',
        'run the judges k times (majority verdict, median harm)',
        parseNumberOption('--repeats', 1, true),
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
      .option('--out <file>', 'per-answer results JSONL (resumable by answer id; required)');
    addLlmOptions(command, { model: false, judge: true })
      .exitOverride()
      .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) })
      .action(async (options: FaithfulnessOptions, self: Command) => {
        const { out, ...flags } = sharedFlags(self);
        if (!out) {
          throw new CitegeistError(
            'OUT_REQUIRED',
            'grade faithfulness needs --out <file>.',
            'Pass --out results.jsonl.',
          );
        }
        const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
        // `grade` knows the flag too (for the rubric judge), so it may have parsed it there.
        const trust = Boolean(options.trustUnlocatedEvidence || self.parent?.opts().trustUnlocatedEvidence);
        await runGradeFaithfulness(
          { ...options, out, trustUnlocatedEvidence: trust },
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
