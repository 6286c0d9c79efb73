import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { CitegeistError, type Document, type RunManifest } from '../../core/index.js';
import { byField, inspectRunFile, reorderRunFile } from '../../io/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import {
  type ExtractRecipesSummary,
  extractRecipesInto,
  type RecipesWork,
  recipeMessages,
  recipesFilePlan,
  recipesManifest,
} from '../../retrieve/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath, openCorpus } from '../corpus-option.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { requireModel } from '../setup/require-model.js';
import { indexDirOf, recipesPathOf } from '../setup/retrieval-options.js';
import { noteTakeovers } from '../takeover-note.js';

interface RecipesFlags extends LlmFlags {
  corpus?: string;
  out?: string;
  retryFailed: boolean;
}

/**
 * Output tokens assumed per paper for `--dry-run`: a material, a method line, 5–10 one-sentence
 * steps and 2–5 key points come to roughly 200–500 tokens of JSON; the estimate takes the top.
 */
const EXPECTED_RECIPE_TOKENS = 500;

export const registerRecipes: RegisterCommand = (program, ctx) => {
  const recipes = program.command('recipes').description('RECIPER recipes (procedural summaries per paper)');
  const extract = recipes
    .command('extract')
    .description(
      'extract one recipe per paper with a model (resumable: papers changed since are redone; failed papers are recorded and counted)',
    )
    .option(...CORPUS_OPTION)
    .option(
      '--out <file>',
      'recipes file (default: index/recipes.jsonl beside the corpus, which --mode reciper reads; another file is read with --recipes)',
    )
    .option('--retry-failed', 'retry papers whose extraction failed before', false);
  addLlmOptions(extract).action((flags: RecipesFlags) => extractRecipes(ctx, flags));
};

async function extractRecipes(ctx: CliContext, flags: RecipesFlags): Promise<void> {
  const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
  const model = requireModel(settings.model, {
    problem: 'Recipe extraction needs a language model and none is configured.',
    fix: 'Pass --model (e.g. ollama:qwen2.5:7b or openai:gpt-4.1-mini) or set "model" in citegeist.config.json.',
    notAModel: ['extractive'],
  });
  const corpus = corpusPath(ctx, flags.corpus);
  const store = openCorpus(corpus);
  let docs: Document[];
  try {
    docs = store.ids().flatMap((id) => store.get(id) ?? []);
  } finally {
    store.close();
  }
  const out = flags.out ? resolve(ctx.io.cwd, flags.out) : recipesPathOf(indexDirOf(ctx, flags.corpus));
  const manifest = recipesManifest({
    model: modelId(parseModelString(model)),
    corpus: relative(dirname(out), corpus).split(sep).join('/'),
    version: VERSION,
  });
  if (settings.dryRun) {
    printEstimate(ctx, docs, out, manifest, flags.retryFailed, settings);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  const runtime = createLlmRuntime(settings, ctx.io.env);
  try {
    await runtime.useRun(manifest);
    const progress = createLazyProgress({ io: ctx.io, label: 'recipes' });
    runtime.onCall((call) => progress.call(call));
    const summary = await extractRecipesInto(out, docs, runtime.provider(model), {
      manifest,
      retryFailed: flags.retryFailed,
      concurrency: settings.concurrency,
      onPlan: (work) => {
        if (work.changed.length > 0) ctx.io.err(`note: ${describeChanged(work)}; redoing them\n`);
      },
      onProgress: (outcome, _done, total) =>
        progress.tick({ ok: outcome.ok, ...(outcome.reason ? { problem: outcome.reason } : {}) }, total),
    })
      .catch((error: unknown) => {
        throw recipesFix(ctx, out, error);
      })
      .finally(() => progress.stop());
    reorderRunFile(out, {
      key: byField('doc_id'),
      command: 'citegeist recipes extract',
      order: docs.map((d) => d.id),
    });
    noteTakeovers(ctx.io, summary.tookOverFrom);
    printSummary(ctx, manifest, summary, out);
    if (summary.failed.length > 0) ctx.setExitCode(1);
  } finally {
    runtime.close();
  }
}

function printSummary(ctx: CliContext, manifest: RunManifest, s: ExtractRecipesSummary, out: string): void {
  if (ctx.globals().json) {
    const { tookOverFrom: _t, ...rest } = s;
    ctx.io.out(
      `${JSON.stringify({ label: manifest.label, run_id: manifest.run_id, ...rest, out: displayPath(ctx, out) }, null, 2)}\n`,
    );
    return;
  }
  const details = [
    s.changed.length > 0 ? `${s.changed.length} redone because their paper changed` : '',
    s.retried.length > 0 ? `${s.retried.length} failed before and retried` : '',
    s.cached > 0 ? `${s.cached} from cache` : '',
  ].filter(Boolean);
  const failedEarlier =
    s.failedEarlier > 0
      ? ` (${s.failedEarlier} of them earlier, not retried: --retry-failed redoes them)`
      : '';
  ctx.io.out(
    `recipes "${manifest.label}": ${s.extracted} extracted${details.length ? ` (${details.join(', ')})` : ''}, ${s.kept} kept from an earlier run, ${s.failed.length} failed${failedEarlier} → ${displayPath(ctx, out)}\n`,
  );
}

function describeChanged(work: Pick<RecipesWork, 'changed'>): string {
  const ids = work.changed.slice(0, 5).join(', ') + (work.changed.length > 5 ? ', …' : '');
  return `${work.changed.length} paper(s) changed since their recipe was extracted (${ids})`;
}

/**
 * `--dry-run`: the papers left to extract, priced from the very messages a run would send; checks
 * the recipes file read-only (a file of another run is refused as a run would refuse it). Needs no
 * key: nothing is called, and nothing (no lock, no cache) is written.
 */
function printEstimate(
  ctx: CliContext,
  docs: readonly Document[],
  out: string,
  manifest: RunManifest,
  retryFailed: boolean,
  settings: LlmSettings,
): void {
  const plan = recipesFilePlan(manifest, docs, { retryFailed });
  let kept: Record<string, unknown>[];
  try {
    kept = inspectRunFile(out, plan.fileOptions).kept;
  } catch (error) {
    throw recipesFix(ctx, out, error);
  }
  const work = plan.work(kept);
  const maxChars = Number(manifest.settings.max_chars);
  const estimate = estimateCost(
    String(manifest.settings.model),
    work.todo.map((d) => ({ messages: recipeMessages(d, maxChars) })),
    { prices: settings.prices, expectedOutputTokens: EXPECTED_RECIPE_TOKENS },
  );
  const result = {
    dry_run: true,
    label: manifest.label,
    papers: work.todo.length,
    kept: work.kept,
    changed: work.changed.length,
    retried: work.retried.length,
    failed_earlier: work.failedEarlier.length,
    ...estimate,
  };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const why = [
    work.changed.length > 0 ? describeChanged(work) : '',
    work.retried.length > 0 ? `${work.retried.length} failed before, retried` : '',
    work.failedEarlier.length > 0
      ? `${work.failedEarlier.length} failed before, not retried without --retry-failed`
      : '',
  ].filter(Boolean);
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    `dry run, nothing called or written: ${work.todo.length} papers to extract as "${manifest.label}" (${work.kept} kept from ${displayPath(ctx, out)}${why.length ? `; ${why.join('; ')}` : ''})\n` +
      `  ${estimate.calls} calls, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens (${EXPECTED_RECIPE_TOKENS} per paper assumed), ${cost}; a reply that fails validation makes up to 2 more calls\n`,
  );
}

/** The fix a recipes file of another run (or of an older citegeist) needs, in recipe terms. */
function recipesFix(ctx: CliContext, out: string, error: unknown): unknown {
  if (!(error instanceof CitegeistError)) return error;
  const shown = displayPath(ctx, out);
  if (error.code === 'RUN_MANIFEST_MISMATCH') {
    return new CitegeistError(
      error.code,
      error.problem,
      `To keep these recipes, run with the settings recorded in the file, or extract into another file with --out <file> (search, retrieve and qa-grid read it with --recipes <file>); to replace them, move ${shown} away first.`,
    );
  }
  if (error.code === 'RUN_FILE_FOREIGN') {
    return new CitegeistError(
      error.code,
      `${shown} holds recipes but no manifest: an older citegeist wrote it, recording neither the prompt's settings nor which version of each paper a recipe was made from, so extraction cannot resume into it.`,
      `Move it away (retrieval still reads it with --recipes <moved file>) and extract again, or extract into another file with --out <file>.`,
    );
  }
  return error;
}
