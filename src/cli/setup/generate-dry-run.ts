import { EXPECTED_GENERATION_TOKENS, type GenerationEstimate } from '../../generate/index.js';
import type { CliContext } from '../context.js';

/** `generate questions --dry-run`: the estimate (`estimateGeneration`) as JSON or two lines. */
export function printGenerationEstimate(ctx: CliContext, label: string, estimate: GenerationEstimate): void {
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify({ dry_run: true, label, ...estimate }, null, 2)}\n`);
    return;
  }
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    `dry run, nothing called or written: ${estimate.papers} papers to generate as "${label}" (${estimate.kept} finished earlier, ${estimate.missing} without text)\n` +
      `  ${estimate.calls} calls, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens (${EXPECTED_GENERATION_TOKENS} per paper assumed), ${cost}; a paper with quotes to repair makes one more call\n`,
  );
}
