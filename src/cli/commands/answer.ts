import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Answerer,
  ExtractiveAnswerer,
  type HarnessProgress,
  LlmAnswerer,
  PaperContext,
  qasperPrediction,
  runAnswers,
} from '../../answer/index.js';
import { CitegeistError } from '../../core/index.js';
import { readDatasetStrict } from '../../generate/index.js';
import { createProvider } from '../../llm/index.js';
import { preparePaper } from '../../text/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { paperSource } from './paper-source.js';

interface AnswerOptions {
  dataset: string;
  papers?: string;
  corpus?: string;
  model?: string;
  context: 'auto' | 'full' | 'retrieval';
  k: string;
  baseline: boolean;
  out: string;
  qasperPredictions?: string;
  concurrency?: string;
  limit?: string;
}

function answererFor(ctx: CliContext, opts: AnswerOptions): Answerer {
  const model = opts.model ?? ctx.config().model;
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
  return new LlmAnswerer(createProvider(model, { env: ctx.io.env }), {
    context: opts.context,
    k,
    baseline: opts.baseline,
  });
}

/** Progress on stderr: done/total, failures, rate, ETA and cost; at most every 2 s, and at the end. */
function progressPrinter(ctx: CliContext) {
  const started = performance.now();
  let last = 0;
  return (p: HarnessProgress) => {
    const now = performance.now();
    if (p.done < p.total && now - last < 2000) return;
    last = now;
    const rate = p.done / Math.max(0.001, (now - started) / 1000);
    const eta = rate > 0 ? Math.round((p.total - p.done) / rate) : 0;
    ctx.io.err(
      `answered ${p.done}/${p.total}${p.skipped ? ` (+${p.skipped} kept from an earlier run)` : ''} · failed ${p.failed} · ` +
        `${rate.toFixed(1)} rows/s · ETA ${eta}s · $${p.costUsd.toFixed(4)}\n`,
    );
  };
}

export const registerAnswer: RegisterCommand = (program, ctx) => {
  program
    .command('answer')
    .description('answer a dataset with a model under the citation contract (or --model extractive, no LLM)')
    .requiredOption('--dataset <file>', 'dataset (eval_dataset.json or JSONL)')
    .option('--papers <dir>', 'paper files named <paper_id>.pdf|.txt|.md')
    .option('--corpus <file>', 'corpus store with the papers')
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
    .option('--concurrency <n>', 'rows answered at once')
    .option('--limit <n>', 'answer only the first n rows')
    .action(async (opts: AnswerOptions) => {
      const answerer = answererFor(ctx, opts);
      let rows = readDatasetStrict(resolve(ctx.io.cwd, opts.dataset));
      if (opts.limit) rows = rows.slice(0, Number(opts.limit));
      const source = paperSource(opts, ctx.io.cwd);
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
      const concurrency = Number(
        opts.concurrency ?? ctx.config().concurrency ?? (answerer.id === 'extractive' ? 1 : 4),
      );
      const result = await runAnswers(rows, answerer, papers, out, {
        concurrency,
        onProgress: progressPrinter(ctx),
      });
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
    });
};
