/**
 * The replay step of a VETSCORE results file (`citegeist grade faithfulness`): its manifest names
 * the answers (with their hash), the verifier, harm judge and decomposer, p, mode, repeats and the
 * harm rubric; the step is that command again, its judges served from the packed replies.
 */
import { CitegeistError } from '../core/index.js';
import { HARM_RUBRICS } from '../grade/index.js';

/** Finds an input a record names (checking its hash when given); throws PACK_INPUT_MISSING. */
export type NeedInput = (owner: string, recorded: string, base: string, sha?: string) => string;

export function faithfulnessStep(
  manifest: Record<string, unknown>,
  abs: string,
  cwd: string,
  need: NeedInput,
  rel: (abs: string) => string,
): { argv: string[]; inputs: string[] } {
  const s = (manifest.settings ?? {}) as Record<string, unknown>;
  const answersRef = (manifest.inputs as Record<string, { path?: string; sha256?: string }> | undefined)
    ?.answers;
  if (!answersRef?.path || typeof s.verifier !== 'string') {
    throw new CitegeistError(
      'PACK_INPUT_MISSING',
      `${rel(abs)} is a VETSCORE results file whose manifest names no answers file or verifier.`,
      'Re-run `citegeist grade faithfulness` to write a results file with a full manifest, then pack.',
    );
  }
  const answers = need(abs, answersRef.path, cwd, answersRef.sha256);
  const inputs = [answers];
  const rubric = String(s.rubric ?? 'veterinary');
  // A bundled rubric ships with citegeist; a rubric file is an input (its hash is in the manifest).
  let rubricArg = rubric;
  if (!(HARM_RUBRICS as readonly string[]).includes(rubric)) {
    const file = need(abs, rubric, cwd);
    inputs.push(file);
    rubricArg = rel(file);
  }
  const argv = [
    'grade',
    'faithfulness',
    '--answers',
    rel(answers),
    '--judge',
    s.verifier,
    '--harm-judge',
    String(s.harm_judge ?? s.verifier),
    '--decomposer',
    String(s.decomposer ?? s.verifier),
    '--p',
    String(s.p),
    '--repeats',
    String(s.repeats ?? 1),
    '--rubric',
    rubricArg,
  ];
  if (s.mode === 'joint') argv.push('--joint');
  if (s.trust_unlocated_evidence === true) argv.push('--trust-unlocated-evidence');
  if (typeof manifest.label === 'string') argv.push('--label', manifest.label);
  return { argv, inputs };
}
