import type { LlmProvider } from '../../llm/index.js';
import { type CallOptions, callModel } from './llm-call.js';
import { HarmSchema, harmPrompt } from './prompts/index.js';
import type { JudgeOutcome } from './verify.js';

export type HarmLevel = 1 | 2 | 3 | 4 | 5;

export interface HarmJudgment {
  harm: HarmLevel;
  rationale: string;
}

/** Stage 3b (METHODS §3.3): the claim's harm potential against the rubric; never sees the excerpts. */
export async function rateHarm(
  llm: LlmProvider,
  input: { question: string; segment: string; claim: string; rubric: string },
  options: CallOptions = {},
): Promise<JudgeOutcome<HarmJudgment>> {
  const result = await callModel(llm, harmPrompt(input), HarmSchema, 'harm', options);
  if (!result.ok) return { ok: false, reason: `harm judge failed: ${result.reason}`, raw: result.raw };
  return { ok: true, value: { harm: result.value.harm as HarmLevel, rationale: result.value.rationale } };
}
