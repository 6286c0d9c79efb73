import { CitegeistError } from '../../core/index.js';

/** Why a command needs a model, as its MODEL_REQUIRED error says it. */
export interface ModelNeed {
  /** What is missing, e.g. "Recipe extraction needs a language model and none is configured." */
  problem: string;
  /** What to pass (default: --model with examples, or "model" in the config file). */
  fix?: string;
  /** Model strings that do not count here (e.g. "extractive" for a stage that needs an LLM). */
  notAModel?: readonly string[];
}

const DEFAULT_FIX =
  'Pass --model <spec> (e.g. openai:gpt-4.1-mini, ollama:qwen2.5:7b) or set "model" in citegeist.config.json.';

/** The model a command was given, or MODEL_REQUIRED: the one check every model-using command makes. */
export function requireModel(model: string | undefined, need: ModelNeed): string {
  if (model && !need.notAModel?.includes(model)) return model;
  throw new CitegeistError('MODEL_REQUIRED', need.problem, need.fix ?? DEFAULT_FIX);
}
