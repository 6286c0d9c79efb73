import type { Document, RunManifest } from '../../core/index.js';
import { CitegeistError } from '../../core/index.js';
import {
  EXPECTED_RECIPE_TOKENS,
  type ExtractRecipesSummary,
  estimateRecipes,
  type RecipesWork,
} from '../../retrieve/index.js';
import type { CliContext } from '../context.js';
import { displayPath } from '../corpus-option.js';
import type { LlmSettings } from '../llm-options.js';

/** What `citegeist recipes extract` prints: the summary, the `--dry-run` estimate, its errors' fixes. */

export function printRecipesSummary(
  ctx: CliContext,
  manifest: RunManifest,
  s: ExtractRecipesSummary,
  out: string,
): void {
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

export function describeChanged(work: Pick<RecipesWork, 'changed'>): string {
  const ids = work.changed.slice(0, 5).join(', ') + (work.changed.length > 5 ? ', …' : '');
  return `${work.changed.length} paper(s) changed since their recipe was extracted (${ids})`;
}

/**
 * `--dry-run`: the papers left to extract, priced from the very messages a run would send; checks
 * the recipes file read-only (a file of another run is refused as a run would refuse it). Needs no
 * key: nothing is called, and nothing (no lock, no cache) is written.
 */
export function printRecipesEstimate(
  ctx: CliContext,
  docs: readonly Document[],
  out: string,
  manifest: RunManifest,
  retryFailed: boolean,
  settings: LlmSettings,
): void {
  let planned: ReturnType<typeof estimateRecipes>;
  try {
    planned = estimateRecipes(out, manifest, docs, { retryFailed, prices: settings.prices });
  } catch (error) {
    throw recipesFix(ctx, out, error);
  }
  const { work, estimate } = planned;
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
export function recipesFix(ctx: CliContext, out: string, error: unknown): unknown {
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
