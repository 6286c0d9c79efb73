import type { ReportRequest } from '../../formats/index.js';
import {
  attestPrompt,
  firstInstancePrompt,
  negativePrompt,
  nuggetPrompt,
  relevancePrompt,
  requiresCitationPrompt,
} from '../argue/prompts.js';
import { RUBRIC_PROMPT_VERSION } from '../researchqa/rubric-judge.js';
import type { JudgedBy } from './agreement-gate.js';
import { claimSupportPromptVersion } from './claim-support-judge.js';
import { promptVersionOf } from './set-judge.js';

/**
 * The version of the anchored rubric prompt (ResearchQA's factual accuracy and completeness): the
 * one `meta-eval judge --judge-kind rubric` certifies on reference sets, and that a grades file's
 * manifest records as `judge_prompt`.
 */
export function rubricPromptVersion(): string {
  return RUBRIC_PROMPT_VERSION;
}

/** The rubric judge of `grade --judge` and of grades files (model id, its prompt version). */
export function rubricJudgeOf(model: string, promptVersion: string | null = rubricPromptVersion()): JudgedBy {
  return {
    what: 'rubric judge (factual accuracy, completeness)',
    model,
    promptVersion,
    metrics: ['factual_accuracy', 'completeness'],
  };
}

/** VETSCORE's verifier: the claim-support prompt, or the joint prompt (another prompt, `joint`). */
export function verifierJudgeOf(model: string, joint: boolean): JudgedBy {
  return {
    what: 'VETSCORE verifier',
    model,
    promptVersion: joint ? 'joint' : claimSupportPromptVersion(),
  };
}

const NO_REQUEST: ReportRequest = {
  id: '',
  title: null,
  background: null,
  problemStatement: null,
  limit: null,
  raw: {},
  where: '',
};

/** The version of the ARGUE judge's prompts: the fixed system texts of all six of them. */
export function arguePromptVersion(): string {
  const prompts = [
    attestPrompt('', ''),
    relevancePrompt(NO_REQUEST, ''),
    nuggetPrompt('', []),
    requiresCitationPrompt('', NO_REQUEST),
    firstInstancePrompt('', []),
    negativePrompt(''),
  ];
  return promptVersionOf(...prompts.map((p) => p[0]?.content ?? ''));
}

/**
 * The ARGUE judge of `reports judge`: an LLM (its model id, the prompts' version) or the lexical
 * judge (its id names its thresholds; it has no prompt).
 */
export function argueJudgeOf(judgeId: string, lexical: boolean): JudgedBy {
  return {
    what: 'ARGUE judge (attestation, nuggets)',
    model: judgeId,
    promptVersion: lexical ? null : arguePromptVersion(),
  };
}

/**
 * The judge of a grades or VETSCORE results file, read from its manifest: the rubric judge
 * (`judge`, `judge_prompt`) of ResearchQA grades, the verifier (`verifier`, `mode`) of VETSCORE
 * results; null when the file holds no judged numbers.
 */
export function judgeOfManifest(
  manifest: { kind: string | null; settings: Readonly<Record<string, unknown>> | null } | null,
): JudgedBy | null {
  const s = manifest?.settings ?? {};
  if (manifest?.kind === 'grades' && typeof s.judge === 'string') {
    return rubricJudgeOf(s.judge, typeof s.judge_prompt === 'string' ? s.judge_prompt : null);
  }
  if (manifest?.kind === 'faithfulness' && typeof s.verifier === 'string')
    return verifierJudgeOf(s.verifier, s.mode === 'joint');
  return null;
}

/** The distinct judges of several files (same model and prompt version once). */
export function distinctJudges(judges: readonly (JudgedBy | null)[]): JudgedBy[] {
  const seen = new Map<string, JudgedBy>();
  for (const j of judges) if (j) seen.set(`${j.what}\u0000${j.model}\u0000${j.promptVersion}`, j);
  return [...seen.values()];
}
