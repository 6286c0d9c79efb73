import type { RunManifest } from '../../core/index.js';
import { estimateJudging } from '../../grade/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import type { CliContext } from '../context.js';
import type { Prepared } from './grading.js';

/** `grade --dry-run`: the judge calls the rows left to grade would make (the citation metrics are free). */
export function printJudgeEstimate(
  ctx: CliContext,
  p: Prepared,
  target: { path: string; manifest: RunManifest },
): void {
  const judge = p.settings.judge ? modelId(parseModelString(p.settings.judge, '--judge')) : null;
  const run = p.runs[0]!.rows;
  const estimate = judge
    ? estimateJudging(p.dataset, run, target, judge, p.settings.prices)
    : { rows: run.length, kept: 0, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const result = { dry_run: true, label: target.manifest.label, judge, ...estimate };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    judge
      ? `dry run, nothing called or written: ${estimate.rows} rows to grade as "${target.manifest.label}" (${estimate.kept} kept); judge ${judge}: ${estimate.calls} calls, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens, ${cost}\n`
      : `dry run: no judge, so no model calls (the citation metrics are computed locally)\n`,
  );
}
