import { resolve } from 'node:path';
import {
  answerOpened,
  indexedPassageText,
  openAnswering,
  runPassages,
  writeQasperPredictions,
} from '../../answer/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmRuntime, resolveLlmSettings } from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { openRetrievedRun, RETRIEVED_OPTION } from '../retrieved-run.js';
import { printAnswerDryRun } from '../setup/answer-dry-run.js';
import { type AnswerFlags, answererFor, isAnswerer } from '../setup/answerer-flags.js';
import { addCheckOption } from '../setup/dataset-preflight.js';
import { countOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions, paperSourceOf } from '../setup/paper-source.js';
import { noteTakeovers } from '../takeover-note.js';

export const registerAnswer: RegisterCommand = (program, ctx) => {
  const command = program
    .command('answer')
    .description('answer a dataset with a model under the citation contract (or --model extractive, no LLM)')
    .requiredOption(
      '--dataset <file>',
      'dataset (eval_dataset.json, JSONL, or the hub export as JSON, JSONL or .parquet)',
    )
    .option(
      '--model <model>',
      'extractive or lead (offline baselines), or a model string (openai:gpt-4.1-mini, ollama:qwen2.5:7b, …)',
    )
    .option('--context <mode>', 'auto (whole paper if it fits, else retrieval) | full | retrieval', 'auto')
    .option('-k <n>', 'passages in retrieval mode', countOption('-k'), 8)
    .option('--baseline', 'no citation contract (citation metrics then do not apply)', false)
    .option(
      '--free-text',
      "plain-text answer from retrieved passages, no citation contract (RECIPER's generators; score with qa-eval)",
      false,
    )
    .requiredOption(
      '--out <file>',
      'run JSONL (resumed if it exists: kept rows are skipped, failed rows retried)',
    )
    .option(
      '--qasper-predictions <file>',
      'also write official QASPER predictions (rows imported from QASPER)',
    )
    .option('--limit <n>', 'answer only the first n rows', countOption('--limit'))
    .option(
      '--label <name>',
      "the run's name in leaderboards and reports (default: the model and the settings that differ from the defaults)",
    );
  addPaperSourceOptions(command);
  command.option(...RETRIEVED_OPTION);
  addCheckOption(command);
  addLlmOptions(command, { model: false }).action((opts: AnswerFlags) => answer(ctx, opts));
};

/** `citegeist answer`: the answerer the flags name, over the dataset (`openAnswering`, `answerOpened`). */
async function answer(ctx: CliContext, opts: AnswerFlags): Promise<void> {
  const settings = resolveLlmSettings(opts, ctx.config(), ctx.io.cwd);
  let runtime: LlmRuntime | undefined;
  // --retrieved: another engine's run gives each row's passages (topics = row ids).
  const retrieved = opts.retrieved ? openRetrievedRun(ctx, opts.retrieved, opts.corpus) : null;
  const runSource = retrieved
    ? runPassages(retrieved.retriever, indexedPassageText(retrieved.passages))
    : undefined;
  const answerer = answererFor(
    opts,
    settings,
    () => (runtime ??= createLlmRuntime(settings, ctx.io.env)),
    runSource,
  );
  try {
    const opened = await openAnswering({
      dataset: opts.dataset,
      out: opts.out,
      papers: paperSourceOf(ctx, opts),
      answerer,
      cwd: ctx.io.cwd,
      context: opts.context,
      ...(opts.limit === undefined ? {} : { limit: opts.limit }),
      check: opts.check,
      ...(opts.label === undefined ? {} : { label: opts.label }),
      ...(retrieved ? { retriever: retrieved.description } : {}),
      // A dry run writes nothing, not even the papers cache.
      writeCaches: !settings.dryRun,
      env: ctx.io.env,
      warn: (line) => ctx.io.err(`${line}\n`),
    });
    if (settings.dryRun || !isAnswerer(answerer))
      return await printAnswerDryRun(ctx, opened, settings.prices, opts.out);
    const concurrency =
      answerer.id === 'extractive' && opts.concurrency === undefined && ctx.config().concurrency === undefined
        ? 1
        : settings.concurrency;
    await runtime?.useRun(opened.manifest);
    const progress = createLazyProgress({ io: ctx.io, label: 'answered' });
    // Tokens and cost as the server reported them, per call (none for the extractive answerer;
    // a cached reply counts as cached, at no cost).
    runtime?.onCall((call) => progress.call(call));
    const result = await answerOpened(
      { ...opened, answerer },
      { concurrency, onProgress: (p, row) => progress.tick({ ok: row.error === null }, p.total) },
    ).finally(() => progress.stop());
    noteTakeovers(ctx.io, result.tookOverFrom);
    if (opts.qasperPredictions) {
      const n = writeQasperPredictions(resolve(ctx.io.cwd, opts.qasperPredictions), opened, result);
      ctx.io.err(`${n} QASPER predictions → ${opts.qasperPredictions}\n`);
    }
    const summary = {
      label: result.manifest.label,
      run_id: result.manifest.run_id,
      model: answerer.id,
      answered: result.answered,
      failed: result.failed,
      kept: result.skipped,
      from_cache: result.cached,
      cost_usd: result.costUsd,
      out: opts.out,
    };
    const cached = result.cached > 0 ? `, ${result.cached} from cache` : '';
    ctx.io.out(
      ctx.globals().json
        ? `${JSON.stringify(summary, null, 2)}\n`
        : `${result.manifest.label}: answered ${result.answered} rows (${result.failed} failed, ${result.skipped} kept from an earlier run${cached}) → ${opts.out}\n`,
    );
    if (result.failed > 0) ctx.setExitCode(1);
  } finally {
    runtime?.close();
  }
}
