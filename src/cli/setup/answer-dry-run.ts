import { estimateAnswering, type OpenedAnswering } from '../../answer/index.js';
import type { PriceTable } from '../../llm/index.js';
import type { CliContext } from '../context.js';

/** `--dry-run`: what the rows left to answer would cost, without calling a model or writing a file. */
export async function printAnswerDryRun(
  ctx: CliContext,
  opened: OpenedAnswering,
  prices: PriceTable,
  out: string,
): Promise<void> {
  const { manifest } = opened;
  const { kept, callsModel, ...estimate } = await estimateAnswering(opened, prices);
  const result = { dry_run: true, label: manifest.label, kept, ...estimate };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost =
    estimate.costUsd === null ? 'no price for this model' : `at most $${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    `dry run, nothing called or written: ${estimate.rows} rows to answer as "${manifest.label}" (${kept} kept from ${out})\n` +
      `  ${estimate.calls} calls, ~${estimate.inputTokens} input + at most ${estimate.outputTokens} output tokens, ${cost}\n` +
      (callsModel
        ? `  context: ${estimate.byContext.full} full paper, ${estimate.byContext.retrieval} retrieval; ${estimate.missingPaper} rows without their paper (they fail without a call)\n`
        : '  the extractive answerer calls no model\n'),
  );
}
