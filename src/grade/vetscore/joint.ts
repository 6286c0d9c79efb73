import type { LlmProvider } from '../../llm/index.js';
import type { HarmJudgment, HarmLevel } from './harm.js';
import { type CallOptions, callModel } from './llm-call.js';
import { JointSchema, jointPrompt } from './prompts/index.js';
import type { Excerpt } from './segment.js';
import {
  type JudgeOutcome,
  noExcerptJudgment,
  toVerification,
  type VerificationJudgment,
  type VerifyOptions,
} from './verify.js';

/**
 * The `--joint` ablation: verdict and harm from one prompt. Without excerpts the call still rates
 * harm, and the verdict is `unsupported` by definition, as in the separate pipeline. A supported
 * verdict is grounded as in `verifyClaim`.
 */
export async function judgeJointly(
  llm: LlmProvider,
  input: { question: string; segment: string; claim: string; excerpts: Excerpt[]; rubric: string },
  options: CallOptions & VerifyOptions = {},
): Promise<JudgeOutcome<{ verification: VerificationJudgment; harm: HarmJudgment }>> {
  const result = await callModel(llm, jointPrompt(input), JointSchema, 'joint_judgment', options);
  if (!result.ok) return { ok: false, reason: `joint judge failed: ${result.reason}`, raw: result.raw };
  const { harm, ...rest } = result.value;
  const verification =
    input.excerpts.length === 0 ? noExcerptJudgment() : toVerification(rest, input.excerpts, options);
  return { ok: true, value: { verification, harm: { harm: harm as HarmLevel, rationale: rest.rationale } } };
}
