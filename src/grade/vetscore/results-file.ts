import { createManifest, defaultLabel, type RunManifest, sha256Hex } from '../../core/index.js';
import { byField, inspectRunFile, RunFile, type RunFileOptions, reorderRunFile } from '../../io/index.js';
import { DEFAULT_HARM_EXPONENT } from './aggregate.js';
import type { AnswerGrade, FaithfulnessSettings } from './grade-answer.js';
import { gradeFaithfulnessBatch } from './grade-batch.js';
import type { FaithfulnessInput } from './input.js';
import { DEFAULT_HARM_RUBRIC } from './rubric.js';

/** What a results file of `grade faithfulness` was made with (model ids as providers report them). */
export interface ResultsFileSettings {
  verifier: string;
  harmJudge: string;
  decomposer: string;
  p: number;
  joint: boolean;
  repeats: number;
  rubric: { name: string; text: string };
  trustUnlocatedEvidence: boolean;
  label?: string;
  version: string;
}

/**
 * The manifest of a results file: the judges, p, mode, repeats and rubric (its text hashed), and
 * the answers file's hash. Labelled by the verifier plus the settings that differ from the defaults.
 */
export function faithfulnessManifest(
  s: ResultsFileSettings,
  answers: { sha256: string; path: string },
): RunManifest {
  const settings = {
    method: 'vetscore',
    verifier: s.verifier,
    harm_judge: s.harmJudge,
    decomposer: s.decomposer,
    p: s.p,
    mode: s.joint ? 'joint' : 'separate',
    repeats: s.repeats,
    rubric: s.rubric.name,
    rubric_sha256: sha256Hex(s.rubric.text),
    // Unverified support counts differently with the flag: scores with and without it differ.
    trust_unlocated_evidence: s.trustUnlocatedEvidence,
  };
  return createManifest({
    kind: 'faithfulness',
    label: s.label,
    defaultLabel: defaultLabel(`vetscore ${settings.verifier}`, settings, {
      p: DEFAULT_HARM_EXPONENT,
      mode: 'separate',
      repeats: 1,
      rubric: DEFAULT_HARM_RUBRIC,
      trust_unlocated_evidence: false,
    }),
    settings,
    inputs: { answers },
    version: s.version,
  });
}

/** Results stay across a resume unless their answer failed (it is graded again). */
export function resultsFileOptions(manifest: RunManifest): RunFileOptions {
  return {
    manifest,
    idField: 'id',
    what: 'results file',
    command: 'citegeist grade faithfulness',
    keep: (row) => row.status !== 'failed',
  };
}

/** The answers a resume of `path` would grade, without changing the file or taking its lock (dry run). */
export function pendingAnswers(
  path: string,
  manifest: RunManifest,
  inputs: readonly FaithfulnessInput[],
): FaithfulnessInput[] {
  const done = new Set(inspectRunFile(path, resultsFileOptions(manifest)).kept.map((r) => String(r.id)));
  return inputs.filter((i) => !done.has(i.id));
}

/**
 * Grades into the results file at `path` (VETSCORE): opens it under its lock (resuming: answers
 * kept are skipped, failed ones graded again), appends each grade as it completes, and at the end
 * puts the rows in the answers' order. Returns the grades kept from before and those made now.
 */
export async function gradeIntoResultsFile(
  path: string,
  manifest: RunManifest,
  inputs: readonly FaithfulnessInput[],
  settings: FaithfulnessSettings,
  options: { concurrency: number; onStart?: (todo: number) => void; onGrade?: (grade: AnswerGrade) => void },
): Promise<{ kept: AnswerGrade[]; fresh: AnswerGrade[] }> {
  const fresh: AnswerGrade[] = [];
  const file = RunFile.open(path, resultsFileOptions(manifest));
  let kept: AnswerGrade[];
  try {
    kept = file.kept as unknown as AnswerGrade[];
    const done = new Set(kept.map((g) => g.id));
    const todo = inputs.filter((i) => !done.has(i.id));
    options.onStart?.(todo.length);
    await gradeFaithfulnessBatch(todo, settings, {
      concurrency: options.concurrency,
      onGrade: (g) => {
        file.append(g);
        fresh.push(g);
        options.onGrade?.(g);
      },
    });
  } finally {
    file.close();
  }
  reorderRunFile(path, {
    key: byField('id'),
    command: 'citegeist grade faithfulness',
    order: inputs.map((i) => i.id),
  });
  return { kept, fresh };
}
