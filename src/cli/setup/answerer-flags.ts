import {
  type Answerer,
  AnswerPlanner,
  ExtractiveAnswerer,
  LeadAnswerer,
  LlmAnswerer,
  type PassageSource,
} from '../../answer/index.js';
import { CitegeistError } from '../../core/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import type { LlmFlags, LlmRuntime, LlmSettings } from '../llm-options.js';
import { requireModel } from './require-model.js';

/** The flags of `citegeist answer`. */
export interface AnswerFlags extends LlmFlags {
  dataset: string;
  papers?: string;
  corpus?: string;
  retrieved?: string;
  context: 'auto' | 'full' | 'retrieval';
  k: number;
  baseline: boolean;
  freeText: boolean;
  out: string;
  qasperPredictions?: string;
  limit?: number;
  check: boolean;
  label?: string;
}

/**
 * The extractive answerer, or an LLM answerer whose provider comes from the run's shared runtime;
 * for `--dry-run`, an LLM answerer's planner (its requests, no provider, no key needed).
 */
export function answererFor(
  opts: Pick<AnswerFlags, 'context' | 'k' | 'baseline' | 'freeText'>,
  settings: LlmSettings,
  runtime: () => LlmRuntime,
  passages?: PassageSource,
): Answerer | AnswerPlanner {
  const model = requireModel(settings.model, {
    problem: 'No model was given.',
    fix: 'Add --model extractive (no LLM needed) or a model string such as openai:gpt-4.1-mini or ollama:qwen2.5:7b.',
  });
  if (!['auto', 'full', 'retrieval'].includes(opts.context)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--context ${opts.context} is not auto, full or retrieval.`,
      'Use --context auto.',
    );
  }
  const k = opts.k;
  if (model === 'extractive' || model === 'lead') {
    if (opts.baseline) {
      throw new CitegeistError(
        'BAD_OPTION',
        `--baseline has no meaning for the ${model} answerer.`,
        'Drop --baseline.',
      );
    }
    // The lead baseline: the paper's first sentences whatever the question (a floor to compare to).
    if (model === 'lead') return new LeadAnswerer();
    return new ExtractiveAnswerer({ k, freeText: opts.freeText, ...(passages ? { passages } : {}) });
  }
  const options = {
    context: opts.context,
    k,
    baseline: opts.baseline,
    freeText: opts.freeText,
    ...(passages ? { passages } : {}),
  };
  if (settings.dryRun)
    return new AnswerPlanner({ id: modelId(parseModelString(model)), contextWindow: null }, options);
  return new LlmAnswerer(runtime().provider(model), options);
}

export const isAnswerer = (x: Answerer | AnswerPlanner): x is Answerer => 'answer' in x;
