import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Document } from '../../core/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { extractRecipesInto, recipesManifest, recipesPathOf } from '../../retrieve/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, openCorpus } from '../corpus-option.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import {
  describeChanged,
  printRecipesEstimate,
  printRecipesSummary,
  recipesFix,
} from '../setup/recipes-output.js';
import { requireModel } from '../setup/require-model.js';
import { indexDirOf } from '../setup/retrieval-options.js';
import { noteTakeovers } from '../takeover-note.js';

interface RecipesFlags extends LlmFlags {
  corpus?: string;
  out?: string;
  retryFailed: boolean;
}

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
    printRecipesEstimate(ctx, docs, out, manifest, flags.retryFailed, settings);
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
    noteTakeovers(ctx.io, summary.tookOverFrom);
    printRecipesSummary(ctx, manifest, summary, out);
    if (summary.failed.length > 0) ctx.setExitCode(1);
  } finally {
    runtime.close();
  }
}
