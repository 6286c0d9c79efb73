import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Answerer,
  ExtractiveAnswerer,
  LlmAnswerer,
  PaperContext,
  qasperPrediction,
  runAnswers,
} from '../../answer/index.js';
import { CitegeistError } from '../../core/index.js';
import { readDatasetStrict } from '../../generate/index.js';
import { preparePaper } from '../../text/index.js';
import type { RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmRuntime,
  type LlmSettings,
  refuseDryRun,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { addPaperSourceOptions, paperSource, paperSourceOf } from './paper-source.js';

interface AnswerOptions extends LlmFlags {
  dataset: string;
  papers?: string;
  corpus?: string;
  context: 'auto' | 'full' | 'retrieval';
  k: string;
  baseline: boolean;
  out: string;
  qasperPredictions?: string;
  limit?: string;
}

/** The extractive answerer, or an LLM answerer whose provider comes from the run's shared runtime. */
function answererFor(opts: AnswerOptions, settings: LlmSettings, runtime: () => LlmRuntime): Answerer {
  const model = settings.model;
  if (!model) {
    throw new CitegeistError(
      'NO_MODEL',
      'No model was given.',
      'Add --model extractive (no LLM needed) or a model string such as openai:gpt-4.1-mini or ollama:qwen2.5:7b.',
    );
  }
  if (!['auto', 'full', 'retrieval'].includes(opts.context)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--context ${opts.context} is not auto, full or retrieval.`,
      'Use --context auto.',
    );
  }
  const k = Number(opts.k);
  if (!Number.isInteger(k) || k < 1)
    throw new CitegeistError('BAD_OPTION', `-k ${opts.k} is not a positive integer.`, 'Use -k 8.');
  if (model === 'extractive') {
    if (opts.baseline) {
      throw new CitegeistError(
        'BAD_OPTION',
        '--baseline has no meaning for the extractive answerer.',
        'Drop --baseline.',
      );
    }
    return new ExtractiveAnswerer({ k });
  }
  refuseDryRun(settings, 'citegeist answer');
  return new LlmAnswerer(runtime().provider(model), {
    context: opts.context,
    k,
    baseline: opts.baseline,
  });
}

export const registerAnswer: RegisterCommand = (program, ctx) => {
  const command = program
    .command('answer')
    .description('answer a dataset with a model under the citation contract (or --model extractive, no LLM)')
    .requiredOption('--dataset <file>', 'dataset (eval_dataset.json or JSONL)')
    .option('--model <model>', 'extractive, or a model string (openai:gpt-4.1-mini, ollama:qwen2.5:7b, …)')
    .option('--context <mode>', 'auto (whole paper if it fits, else retrieval) | full | retrieval', 'auto')
    .option('-k <n>', 'passages in retrieval mode', '8')
    .option('--baseline', 'no citation contract (citation metrics then do not apply)', false)
    .requiredOption(
      '--out <file>',
      'run JSONL (resumed if it exists: kept rows are skipped, failed rows retried)',
    )
    .option(
      '--qasper-predictions <file>',
      'also write official QASPER predictions (rows imported from QASPER)',
    )
    .option('--limit <n>', 'answer only the first n rows');
  addPaperSourceOptions(command);
  addLlmOptions(command, { model: false }).action(async (opts: AnswerOptions) => {
    const settings = resolveLlmSettings(opts, ctx.config(), ctx.io.cwd);
    let runtime: LlmRuntime | undefined;
    const answerer = answererFor(opts, settings, () => {
      runtime ??= createLlmRuntime(settings, ctx.io.env);
      return runtime;
    });
    try {
      let rows = readDatasetStrict(resolve(ctx.io.cwd, opts.dataset));
      if (opts.limit) rows = rows.slice(0, Number(opts.limit));
      const source = paperSource(paperSourceOf(ctx, opts), ctx.io.cwd);
      const contexts = new Map<string, Promise<PaperContext | null>>();
      const papers = (id: string) => {
        let p = contexts.get(id);
        if (!p) {
          p = source(id).then((doc) => (doc ? new PaperContext(doc) : null));
          contexts.set(id, p);
        }
        return p;
      };
      const out = resolve(ctx.io.cwd, opts.out);
      const concurrency =
        answerer.id === 'extractive' &&
        opts.concurrency === undefined &&
        ctx.config().concurrency === undefined
          ? 1
          : settings.concurrency;
      const progress = createLazyProgress({ io: ctx.io, label: 'answered' });
      // Tokens and cost as the server reported them, per call (none for the extractive answerer).
      runtime?.onCall((call) => progress.call(call));
      const result = await runAnswers(rows, answerer, papers, out, {
        concurrency,
        onProgress: (p, row) => progress.tick({ ok: row.error === null }, p.total),
      }).finally(() => progress.stop());
      if (opts.qasperPredictions) {
        const byId = new Map(rows.map((r) => [r.row_id, r]));
        const prepared = new Map<string, ReturnType<typeof preparePaper>>();
        const lines: string[] = [];
        for (const run of result.rows) {
          const row = byId.get(run.row_id);
          if (!row || run.error) continue;
          const paper = await papers(row.paper_id);
          let p = prepared.get(row.paper_id);
          if (paper && !p) {
            p = preparePaper(paper.text);
            prepared.set(row.paper_id, p);
          }
          const line = qasperPrediction(row, run, paper, p);
          if (line) lines.push(JSON.stringify(line));
        }
        writeFileSync(resolve(ctx.io.cwd, opts.qasperPredictions), lines.map((l) => `${l}\n`).join(''));
        ctx.io.err(`${lines.length} QASPER predictions → ${opts.qasperPredictions}\n`);
      }
      const summary = {
        model: answerer.id,
        answered: result.answered,
        failed: result.failed,
        kept: result.skipped,
        cost_usd: result.costUsd,
        out: opts.out,
      };
      ctx.io.out(
        ctx.globals().json
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `${answerer.id}: answered ${result.answered} rows (${result.failed} failed, ${result.skipped} kept from an earlier run) → ${opts.out}\n`,
      );
      if (result.failed > 0) ctx.setExitCode(1);
    } finally {
      runtime?.close();
    }
  });
};
