import { DEFAULT_MAX_DOC_CHARS } from '../../grade/index.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import type { RuntimeFactory } from '../setup/faithfulness-runtime.js';
import { addJudgeCardOptions } from '../setup/judge-card-options.js';
import { collect, countOption, parseIntOption } from '../setup/option-parsers.js';
import { reportsCommand } from '../setup/report-runs-inputs.js';
import { type JudgeOptions, runReportsJudge } from '../setup/report-runs-judge-run.js';
import { requireModel } from '../setup/require-model.js';

/** Registers `citegeist reports judge` (ARGUE judgments) with a runtime factory (tests pass a fake). */
export function reportsJudgeCommand(runtime: RuntimeFactory): RegisterCommand {
  return (program, ctx) => {
    const command = reportsCommand(program)
      .command('judge')
      .description(
        'judge report runs sentence by sentence the ARGUE way (attestation, relevance, nuggets) into ARGUE-viz judgments',
      )
      .requiredOption(
        '--runs <file|dir>',
        'report run JSONL (repeatable; a folder: every *.jsonl in it)',
        collect,
        [],
      )
      .requiredOption(
        '--nuggets <path>',
        'nugget banks: a folder of v3 files, or a v3/legacy/NeuCLIR/nuggetizer file',
      )
      .requiredOption(
        '--requests <file>',
        'requests JSONL (request_id, title, background, problem_statement, limit)',
      )
      .requiredOption(
        '--docs <path>',
        'cited documents: a citegeist corpus (.sqlite), a {doc_id,text} JSONL, or a folder',
      )
      .requiredOption(
        '--out <file>',
        'judgments JSONL (appended as reports complete; rerun to resume or retry failures)',
      )
      .option(
        '--limit <n>',
        "length limit for every report (default: each request's own limit)",
        countOption('--limit'),
      )
      .option('--length-mode <mode>', 'count the limit in NFKC characters or in words', 'characters')
      .option(
        '--max-doc-chars <n>',
        `clip cited documents to this many characters in judge prompts (default ${DEFAULT_MAX_DOC_CHARS})`,
        parseIntOption('--max-doc-chars', 1000),
      )
      .option(
        '--repeats <k>',
        "with a model judge: judge each report k times (distinct cache keys; the line keeps every repeat's judgments, for the judge noise and rank stability `reports score` prints)",
        countOption('--repeats'),
        1,
      )
      .option(
        '--trust-unlocated-evidence',
        'count attestations and nugget matches whose quotes are not found in the cited document or the sentence as the judge said (default: they do not count)',
      );
    addJudgeCardOptions(command, 'ARGUE judge');
    addLlmOptions(command, { model: false, judge: true }).action(async (options: JudgeOptions & LlmFlags) => {
      const { judge, concurrency, budget, dryRun, cache, cacheOnly, ...own } = options;
      requireModel(judge ?? ctx.config().judge, {
        problem: 'reports judge needs a judge and none was given.',
        fix: 'Pass --judge lexical (offline baseline) or --judge <model> (e.g. openai:gpt-4.1-mini).',
      });
      const flags: LlmFlags = { dryRun: dryRun ?? false, cacheOnly: cacheOnly ?? false };
      if (judge !== undefined) flags.judge = judge;
      if (concurrency !== undefined) flags.concurrency = concurrency;
      if (budget !== undefined) flags.budget = budget;
      if (cache !== undefined) flags.cache = cache;
      const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
      await runReportsJudge(own, settings, runtime, ctx);
    });
  };
}

export const registerReportsJudge = reportsJudgeCommand((settings, ctx) =>
  createLlmRuntime(settings, ctx.io.env),
);
