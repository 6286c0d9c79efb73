/** The `nuggets` command group and the inputs its subcommands share. */
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError } from '../../core/index.js';
import type { CallOutcome, StepProgress } from '../../generate/index.js';

import {
  type ChatMessage,
  estimateCost,
  modelId,
  type PriceTable,
  parseModelString,
} from '../../llm/index.js';
import type { CliIo } from '../io.js';
import type { LlmRuntime } from '../llm-options.js';
import { createProgress, type Progress } from '../progress.js';
import { requireModel } from './require-model.js';

// What a nugget bank records of its model, and fitting an embedder, are the nugget stage's.

/** The `nuggets` command, found if another module registered it, else created. */
export function nuggetsCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'nuggets') ??
    program
      .command('nuggets')
      .description(
        'question-answer nugget banks (DoGMaTiQ): generate, score quality, select, train the selector, convert, stats',
      )
  );
}

/** The model a nugget command needs, or MODEL_REQUIRED saying what it is for. */
export function requireNuggetModel(model: string | undefined, command: string, why: string): string {
  return requireModel(model, {
    problem: `nuggets ${command} ${why} with a language model, and none was given.`,
    fix: 'Pass --model <spec> (e.g. openai:gpt-4.1-mini, ollama:qwen2.5:7b) or set "model" in the config file.',
  });
}

/** A progress tick for one model call of a nugget step (its tokens and cost come from `onCall`). */
export function callTick(progress: Pick<Progress, 'tick'>, unit: string) {
  return (o: CallOutcome) =>
    progress.tick({ ok: o.ok, ...(o.ok ? {} : { problem: `${unit}: ${o.reason}` }) });
}

/**
 * Progress bars for a command's steps, one at a time: each bar counts its units, and the model
 * calls made while it is open (tokens, cost, cached) as the runtime reports them.
 */
export function stepProgress(
  io: CliIo,
  runtime: Pick<LlmRuntime, 'onCall'>,
): (label: string, total: number, unit: string) => StepProgress {
  let current: Progress | null = null;
  runtime.onCall((call) => current?.call(call));
  return (label, total, unit) => {
    const progress = createProgress({ io, label, total, unit });
    current = progress;
    return {
      tick: (item) => progress.tick(item),
      stop: () => {
        if (current === progress) current = null;
        progress.stop();
      },
    };
  };
}

/** Refuses to write a command's output over its input folder. */
export function refuseOutputIsInput(inputs: readonly string[], outDir: string, out: string): void {
  if (inputs.some((file) => dirname(file) === outDir)) {
    throw new CitegeistError(
      'CONFLICTING_OPTIONS',
      `--out ${out} is the folder the banks are read from.`,
      'Write the result to another folder.',
    );
  }
}

/** The `--dry-run` line's figures for calls to one model ("no price" when it has none). */
export function estimateCalls(
  model: string,
  calls: readonly { messages: ChatMessage[]; maxTokens?: number }[],
  prices: PriceTable,
): { calls: number; inputTokens: number; outputTokens: number; costUsd: number | null; cost: string } {
  const spec = parseModelString(model);
  const est = estimateCost(modelId(spec), calls, { model: spec.model, prices });
  return { ...est, cost: est.costUsd === null ? 'no price' : `$${est.costUsd.toFixed(4)}` };
}
