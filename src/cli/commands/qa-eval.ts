import { resolve } from 'node:path';
import { citegeistNow, sha256Hex } from '../../core/index.js';
import { readRun } from '../../formats/index.js';
import { parseQaMetrics, parseReferences, scoreAnswers, summarizeQaScores } from '../../grade/index.js';
import { decodeUtf8, readInputBytes, sha256OfFile, writeFileAtomic } from '../../io/index.js';
import { renderQaSummary } from '../../report/index.js';
import { VERSION } from '../../version.js';
import { addBertScoreOptions, type BertScoreFlags, bertScoreSetup } from '../bertscore-setup.js';
import type { RegisterCommand } from '../context.js';
import { seedOption } from '../setup/option-parsers.js';

interface QaEvalFlags extends BertScoreFlags {
  predictions: string;
  references: string;
  metric: string;
  stemmer: boolean;
  out: string;
  model?: string;
  seed: number;
}

export const DEFAULT_QA_METRICS = 'rouge1,rouge2,rougeL,rougeLsum';

/** sha256 of a file's bytes, for the provenance of every output. */
export function fileSha256(path: string): string {
  return sha256OfFile(path).sha256;
}

export const registerQaEval: RegisterCommand = (program, ctx) => {
  const command = program
    .command('qa-eval')
    .description(
      'score free-text answers against reference answers: ROUGE (rouge-score) and BERTScore (bert_score)',
    )
    .requiredOption('--predictions <file>', 'run (citegeist run JSONL, or the published results JSON list)')
    .requiredOption(
      '--references <file>',
      'reference answers: a citegeist dataset, QASPER questions_validation.json, or JSONL {row_id, references: [..]}',
    )
    .option(
      '--metric <list>',
      'rouge1 … rouge9, rougeL, rougeLsum, bertscore (comma-separated)',
      DEFAULT_QA_METRICS,
    )
    .option('--stemmer', "Porter-stem tokens longer than 3 characters (rouge-score's use_stemmer)", false)
    .option('--model <name>', 'model name for runs that do not record one (published layout)')
    .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 0)
    .requiredOption('--out <file>', 'scores JSONL (a summary JSON with the settings is written beside it)');
  addBertScoreOptions(command).action(async (opts: QaEvalFlags) => {
    const metrics = parseQaMetrics(
      opts.metric
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    );
    const bert = bertScoreSetup(ctx, metrics, opts);
    const predictionsPath = resolve(ctx.io.cwd, opts.predictions);
    const referencesPath = resolve(ctx.io.cwd, opts.references);
    const run = readRun(predictionsPath, opts.model ? { model: opts.model } : {});
    // Each input read once: its hash from the bytes its rows were read from.
    const referencesBytes = readInputBytes(referencesPath, { what: 'references file' });
    const refs = parseReferences(
      decodeUtf8(referencesBytes, `The references file ${referencesPath}`),
      referencesPath,
    );
    for (const e of [...run.errors, ...refs.errors].slice(0, 10))
      ctx.io.err(`skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`);
    if (run.errors.length + refs.errors.length > 0) ctx.setExitCode(1);
    const result = await scoreAnswers(run.rows, refs.references, {
      metrics,
      stemmer: opts.stemmer,
      ...(bert ? { bertscore: bert.settings } : {}),
    });
    if (result.unknownRows.length > 0) {
      ctx.io.err(
        `${result.unknownRows.length} prediction row(s) are not in the references (not scored): ${result.unknownRows.slice(0, 5).join(', ')}\n`,
      );
      ctx.setExitCode(1);
    }
    if (result.missingRows.length > 0)
      ctx.io.err(`${result.missingRows.length} reference row(s) have no prediction\n`);
    const seed = opts.seed;
    const models = summarizeQaScores(result.rows, metrics, { seed });
    const out = resolve(ctx.io.cwd, opts.out);
    writeFileAtomic(out, result.rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const summary = {
      tool: 'citegeist qa-eval',
      version: VERSION,
      created_at: citegeistNow().toISOString(),
      settings: {
        metrics,
        stemmer: opts.stemmer,
        rouge: 'rouge-score 0.1.2 semantics (score_multi over references; rougeLsum lines as sentences)',
        bertscore: bert?.provenance ?? null,
        bootstrap: { iterations: 10_000, confidence: 0.95, seed },
      },
      inputs: {
        predictions: {
          path: opts.predictions,
          sha256: run.sha256,
          rows: run.rows.length,
          bad_rows: run.errors.length,
        },
        references: {
          path: opts.references,
          sha256: sha256Hex(referencesBytes),
          format: refs.format,
          rows: refs.references.size,
          bad_rows: refs.errors.length,
        },
      },
      unknown_rows: result.unknownRows.length,
      missing_rows: result.missingRows.length,
      models,
    };
    writeFileAtomic(`${out.replace(/\.jsonl?$/i, '')}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
    if (ctx.globals().json) ctx.io.out(`${JSON.stringify(summary, null, 2)}\n`);
    else ctx.io.out(`${renderQaSummary(models)}\n\n${result.rows.length} scored rows → ${opts.out}\n`);
  });
};
