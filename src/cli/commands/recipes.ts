import { CitegeistError, canonicalJson, sha256Hex } from '../../core/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { extractRecipes, JsonlRecipeStore } from '../../retrieve/index.js';
import { CorpusStore } from '../../store/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath } from '../corpus-option.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  refuseDryRun,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { indexDirOf, recipesPathOf } from '../retrieval-setup.js';

export const registerRecipes: RegisterCommand = (program, ctx) => {
  const recipes = program.command('recipes').description('RECIPER recipes (procedural summaries per paper)');
  const extract = recipes
    .command('extract')
    .description(
      'extract one recipe per paper with a model (resumable; failed papers are recorded and counted)',
    )
    .option(...CORPUS_OPTION)
    .option('--retry-failed', 'retry papers whose extraction failed before', false);
  addLlmOptions(extract).action(async (flags: LlmFlags & { corpus?: string; retryFailed: boolean }) => {
    const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
    if (!settings.model) {
      throw new CitegeistError(
        'MODEL_REQUIRED',
        'Recipe extraction needs a language model and none is configured.',
        'Pass --model (e.g. ollama:qwen2.5:7b or openai:gpt-4.1-mini) or set "model" in citegeist.config.json.',
      );
    }
    refuseDryRun(settings, 'Recipe extraction');
    const path = corpusPath(ctx, flags.corpus);
    const store = CorpusStore.open(path, { readonly: true });
    const runtime = createLlmRuntime(settings, ctx.io.env);
    try {
      const docs = store.ids().flatMap((id) => store.get(id) ?? []);
      const out = recipesPathOf(indexDirOf(ctx, flags.corpus));
      const recipeStore = new JsonlRecipeStore(out);
      // Recipes have no run manifest: the model and the store name the run on a queue.
      const model = modelId(parseModelString(settings.model));
      await runtime.useRun({
        run_id: sha256Hex(canonicalJson(['recipes', model, out])).slice(0, 16),
        label: `recipes ${model}`,
        kind: 'recipes',
      });
      // Counts only the documents extracted now (stored ones are skipped), failures as failed.
      const progress = createLazyProgress({ io: ctx.io, label: 'recipes' });
      runtime.onCall((call) => progress.call(call));
      const summary = await extractRecipes(docs, runtime.provider(model), recipeStore, {
        retryFailed: flags.retryFailed,
        concurrency: settings.concurrency,
        onProgress: (outcome, _done, total) =>
          progress.tick({ ok: outcome.ok, ...(outcome.reason ? { problem: outcome.reason } : {}) }, total),
      }).finally(() => progress.stop());
      ctx.io.out(
        `recipes: ${summary.extracted} extracted, ${summary.skipped} already stored, ${summary.failed.length} failed (${displayPath(ctx, out)})\n`,
      );
      if (summary.failed.length) ctx.setExitCode(1);
    } finally {
      runtime.close();
      store.close();
    }
  });
};
