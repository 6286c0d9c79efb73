import type { Creator } from '../../formats/index.js';
import { parseModelString } from '../../llm/index.js';

/** `creator` of what a model wrote now (the reference library's Creator fields). */
export function modelCreator(model: string, strategy?: string, date = new Date()): Creator {
  const spec = parseModelString(model);
  return {
    is_human: false,
    llm_model: spec.model,
    llm_backend: spec.kind,
    ...(strategy ? { llm_prompt_strategy: strategy } : {}),
    creation_date: date.toISOString().replace('Z', '+00:00'),
  };
}
