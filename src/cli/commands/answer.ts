import { resolve } from 'node:path';
import {
  type Answerer,
  AnswerPlanner,
  answerManifest,
  ExtractiveAnswerer,
  estimateRunFile,
  LeadAnswerer,
  LlmAnswerer,
  openPaperRetrieval,
  PaperContext,
  type PassageSource,
  qasperPrediction,
  runAnswers,
  runPassages,
} from '../../answer/index.js';
import {
  CitegeistError,
  type DatasetRow,
  type Document,
  hashItems,
  papersInput,
  sha256Hex,
} from '../../core/index.js';
import { loadDataset } from '../../formats/index.js';
import { byField, readInputBytes, reorderRunFile, writeFileAtomic } from '../../io/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { preparePaper } from '../../text/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmRuntime,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { openRetrievedRun, RETRIEVED_OPTION } from '../retrieved-run.js';
import { addCheckOption, checkCacheFile, checkReadDataset } from '../setup/dataset-preflight.js';
import { countOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions, describeSource, paperSource, paperSourceOf } from '../setup/paper-source.js';
import { requireModel } from '../setup/require-model.js';
import { noteTakeovers } from '../takeover-note.js';

interface AnswerOptions extends LlmFlags {
  dataset: string;
  papers?: string;
  corpus?: string;
  retrieved?: string;
  context: 'auto' | 'full' | 'retrieval';
  k: number;
  baseline: boolean;
  freeText: boolean;
  out: string;
  qasperPredictions?: string;
  limit?: number;
  check: boolean;
  label?: string;
}

/**
 * The extractive answerer, or an LLM answerer whose provider comes from the run's shared runtime;
 * for `--dry-run`, an LLM answerer's planner (its requests, no provider, no key needed).
 */
function answererFor(
  opts: AnswerOptions,
  settings: LlmSettings,
  runtime: () => LlmRuntime,
  passages?: PassageSource,
): Answerer | AnswerPlanner {
  const model = requireModel(settings.model, {
    problem: 'No model was given.',
    fix: 'Add --model extractive (no LLM needed) or a model string such as openai:gpt-4.1-mini or ollama:qwen2.5:7b.',
  });
  if (!['auto', 'full', 'retrieval'].includes(opts.context)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--context ${opts.context} is not auto, full or retrieval.`,
      'Use --context auto.',
    );
  }
  const k = opts.k;
  if (model === 'extractive' || model === 'lead') {
    if (opts.baseline) {
      throw new CitegeistError(
        'BAD_OPTION',
        `--baseline has no meaning for the ${model} answerer.`,
        'Drop --baseline.',
      );
    }
    // The lead baseline: the paper's first sentences whatever the question (a floor to compare to).
    if (model === 'lead') return new LeadAnswerer();
    return new ExtractiveAnswerer({ k, freeText: opts.freeText, ...(passages ? { passages } : {}) });
  }
  const options = {
    context: opts.context,
    k,
    baseline: opts.baseline,
    freeText: opts.freeText,
    ...(passages ? { passages } : {}),
  };
  if (settings.dryRun)
    return new AnswerPlanner({ id: modelId(parseModelString(model)), contextWindow: null }, options);
  return new LlmAnswerer(runtime().provider(model), options);
}

const isAnswerer = (x: Answerer | AnswerPlanner): x is Answerer => 'answer' in x;

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
  addLlmOptions(command, { model: false }).action(async (opts: AnswerOptions) => {
    const settings = resolveLlmSettings(opts, ctx.config(), ctx.io.cwd);
    let runtime: LlmRuntime | undefined;
    // --retrieved: another engine's run gives each row's passages (topics = row ids).
    const retrieved = opts.retrieved ? openRetrievedRun(ctx, opts.retrieved, opts.corpus) : null;
    const runSource = retrieved
      ? runPassages(retrieved.retriever, (id) => {
          const p = retrieved.passages.get(id);
          return p
            ? { text: p.text, label: [p.title, ...p.sectionPath].filter(Boolean).join(' > ') }
            : undefined;
        })
      : undefined;
    const answerer = answererFor(
      opts,
      settings,
      () => {
        runtime ??= createLlmRuntime(settings, ctx.io.env);
        return runtime;
      },
      runSource,
    );
    try {
      const datasetPath = resolve(ctx.io.cwd, opts.dataset);
      const sourceOptions = paperSourceOf(ctx, opts);
      // A dry run writes nothing, not even the papers cache.
      const source = paperSource(sourceOptions, ctx.io.cwd, { cache: !settings.dryRun });
      const read = await loadDataset(datasetPath);
      for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
      const all = read.rows;
      const rows = opts.limit !== undefined ? all.slice(0, opts.limit) : all;
      // Every paper the dataset names is loaded (and hashed into the manifest) up front, so a
      // changed paper is noticed before a resume mixes answers from two versions of it.
      const docs = await loadDocuments(all, source);
      const datasetSha256 = sha256Hex(readInputBytes(datasetPath, { what: 'dataset' }));
      // The dataset check (before any model is called) is kept in the workspace by dataset and
      // paper texts, where `grade` of the same dataset finds it too.
      const texts = new Map([...docs].map(([id, doc]) => [id, doc?.text ?? null]));
      await checkReadDataset(
        ctx,
        datasetPath,
        read,
        async (id) => {
          const text = texts.get(id);
          return text == null ? null : { text };
        },
        opts.check,
        {
          file: checkCacheFile(
            ctx.io.cwd,
            datasetSha256,
            hashItems([...texts].map(([id, text]) => [id, text === null ? null : sha256Hex(text)])),
          ),
          write: !settings.dryRun,
        },
        true,
        sourceOptions,
      );
      // Every row retrieves for the extractive answerer and --context retrieval; with auto, only
      // papers too long for the model do (a stale index is then set aside with a note, not refused).
      const everyRow = answerer.id === 'extractive' || opts.context === 'retrieval';
      const retrieval =
        everyRow || opts.context === 'auto'
          ? // Here, not in setup/: only answer needs the answer stage at start-up.
            openPaperRetrieval({
              corpusPath: sourceOptions.corpus ? resolve(ctx.io.cwd, sourceOptions.corpus) : undefined,
              strict: everyRow,
              env: ctx.io.env,
            })
          : null;
      if (retrieval?.note) ctx.io.err(`note: ${retrieval.note}\n`);
      const contexts = new Map<string, PaperContext | null>();
      const context = (id: string) => {
        if (!contexts.has(id)) {
          const doc = docs.get(id);
          contexts.set(id, doc ? new PaperContext(doc, retrieval?.retrieval) : null);
        }
        return contexts.get(id) ?? null;
      };
      const manifest = answerManifest({
        answerer,
        ...(retrieved
          ? { retriever: retrieved.description }
          : retrieval
            ? { retriever: retrieval.description }
            : {}),
        label: opts.label,
        dataset: {
          sha256: datasetSha256,
          path: opts.dataset,
          rows: all.length,
        },
        papers: papersInput(texts, describeSource(sourceOptions)),
        version: VERSION,
      });
      const out = resolve(ctx.io.cwd, opts.out);
      if (settings.dryRun || !isAnswerer(answerer)) {
        await printDryRun(ctx, opts, rows, answerer, context, settings, out, manifest);
        return;
      }
      const concurrency =
        answerer.id === 'extractive' &&
        opts.concurrency === undefined &&
        ctx.config().concurrency === undefined
          ? 1
          : settings.concurrency;
      await runtime?.useRun(manifest);
      const progress = createLazyProgress({ io: ctx.io, label: 'answered' });
      // Tokens and cost as the server reported them, per call (none for the extractive answerer;
      // a cached reply counts as cached, at no cost).
      runtime?.onCall((call) => progress.call(call));
      const result = await runAnswers(
        rows,
        answerer,
        async (id) => context(id),
        { path: out, manifest },
        {
          concurrency,
          onProgress: (p, row) => progress.tick({ ok: row.error === null }, p.total),
        },
      ).finally(() => progress.stop());
      reorderRunFile(out, {
        key: byField('row_id'),
        command: 'citegeist answer',
        order: all.map((r) => r.row_id),
      });
      noteTakeovers(ctx.io, result.tookOverFrom);
      if (opts.qasperPredictions) {
        const byId = new Map(rows.map((r) => [r.row_id, r]));
        const prepared = new Map<string, ReturnType<typeof preparePaper>>();
        const lines: string[] = [];
        for (const run of result.rows) {
          const row = byId.get(run.row_id);
          if (!row || run.error) continue;
          const paper = context(row.paper_id);
          let p = prepared.get(row.paper_id);
          if (paper && !p) {
            p = preparePaper(paper.text);
            prepared.set(row.paper_id, p);
          }
          const line = qasperPrediction(row, run, paper, p);
          if (line) lines.push(JSON.stringify(line));
        }
        writeFileAtomic(resolve(ctx.io.cwd, opts.qasperPredictions), lines.map((l) => `${l}\n`).join(''));
        ctx.io.err(`${lines.length} QASPER predictions → ${opts.qasperPredictions}\n`);
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
  });
};

/** Every paper the rows name, loaded once (null: not found). */
async function loadDocuments(
  rows: readonly DatasetRow[],
  source: (id: string) => Promise<Document | null>,
): Promise<Map<string, Document | null>> {
  const docs = new Map<string, Document | null>();
  for (const id of new Set(rows.map((r) => r.paper_id))) docs.set(id, await source(id));
  return docs;
}

/** `--dry-run`: what the rows left to answer would cost, without calling a model or writing a file. */
async function printDryRun(
  ctx: CliContext,
  opts: AnswerOptions,
  rows: readonly DatasetRow[],
  answerer: Answerer | AnswerPlanner,
  context: (id: string) => PaperContext | null,
  settings: LlmSettings,
  out: string,
  manifest: ReturnType<typeof answerManifest>,
): Promise<void> {
  const { kept, callsModel, ...estimate } = await estimateRunFile({
    rows,
    answerer,
    papers: context,
    prices: settings.prices,
    path: out,
    manifest,
  });
  const result = { dry_run: true, label: manifest.label, kept, ...estimate };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost =
    estimate.costUsd === null ? 'no price for this model' : `at most $${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    `dry run, nothing called or written: ${estimate.rows} rows to answer as "${manifest.label}" (${kept} kept from ${opts.out})\n` +
      `  ${estimate.calls} calls, ~${estimate.inputTokens} input + at most ${estimate.outputTokens} output tokens, ${cost}\n` +
      (callsModel
        ? `  context: ${estimate.byContext.full} full paper, ${estimate.byContext.retrieval} retrieval; ${estimate.missingPaper} rows without their paper (they fail without a call)\n`
        : '  the extractive answerer calls no model\n'),
  );
}
