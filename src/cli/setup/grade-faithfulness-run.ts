import { dirname, resolve } from 'node:path';
import { sha256Hex } from '../../core/index.js';
import {
  type AnswerGrade,
  type CardNote,
  certifyJudge,
  type FaithfulnessInput,
  faithfulnessManifest,
  gradeIntoResultsFile,
  loadHarmRubric,
  pendingAnswers,
  planFaithfulness,
  readFaithfulnessInputs,
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
  verifierJudgeOf,
} from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { CliContext } from '../context.js';
import type { LlmSettings } from '../llm-options.js';
import { createProgress, type Progress } from '../progress.js';
import type { RuntimeFactory } from './faithfulness-runtime.js';
import { requireModel } from './require-model.js';

/** The command's own options (the shared LLM flags come resolved as LlmSettings). */
export interface FaithfulnessOptions {
  answers: string;
  harmJudge?: string;
  decomposer?: string;
  p: number;
  joint: boolean;
  repeats: number;
  rubric: string;
  out: string;
  /** Count supported verdicts whose evidence quote is not in the excerpts as supported. */
  trustUnlocatedEvidence: boolean;
  label?: string;
  /** A judge card for the verifier (`meta-eval judge --set check-covid`): checked, shown beside the score. */
  judgeCard?: string;
  /** Refuse to grade unless the verifier's card agrees with people at least this much. */
  requireAgreement?: number;
}

/** Reads the answers, grades the ones not yet in --out, appends each as it completes, prints the summary. */
export async function runGradeFaithfulness(
  o: FaithfulnessOptions,
  settings: LlmSettings,
  makeRuntime: RuntimeFactory,
  ctx: CliContext,
): Promise<void> {
  const { io } = ctx;
  const judge = requireModel(settings.judge, {
    problem: 'grade faithfulness needs a judge model and none was given.',
    fix: 'Pass --judge <model> (e.g. openai:gpt-4.1-mini) or set "judge" in citegeist.config.json.',
  });
  const models = {
    verifier: judge,
    harm: o.joint ? judge : (o.harmJudge ?? judge),
    decomposer: o.decomposer ?? judge,
  };
  const card = certifyJudge(
    verifierJudgeOf(canonicalId(models.verifier), o.joint === true),
    { cwd: io.cwd, given: o.judgeCard, near: [dirname(resolve(io.cwd, o.out))] },
    o.requireAgreement,
  );
  const answersPath = resolve(io.cwd, o.answers);
  const answersText = readTextFile(answersPath, 'answers file');
  const { inputs, problems } = readFaithfulnessInputs(answersText);
  for (const p of problems) io.err(`skipped [INVALID_INPUT] ${o.answers} ${p.where}: ${p.problem}\n`);
  const rubric = loadHarmRubric(o.rubric, io.cwd);
  const outPath = resolve(io.cwd, o.out);
  const mode = o.joint ? ('joint' as const) : ('separate' as const);
  const manifest = faithfulnessManifest(
    {
      verifier: canonicalId(models.verifier),
      harmJudge: canonicalId(models.harm),
      decomposer: canonicalId(models.decomposer),
      p: o.p,
      joint: o.joint,
      repeats: o.repeats,
      rubric,
      trustUnlocatedEvidence: o.trustUnlocatedEvidence,
      ...(o.label !== undefined ? { label: o.label } : {}),
      version: VERSION,
    },
    { sha256: sha256Hex(answersText), path: o.answers },
  );
  if (settings.dryRun) {
    const todo = pendingAnswers(outPath, manifest, inputs);
    printEstimate(todo, { mode, repeats: o.repeats, rubric: rubric.text }, models, settings, ctx);
    return;
  }
  const runtime = makeRuntime(settings, ctx);
  let progress: Progress | undefined;
  let graded: { kept: AnswerGrade[]; fresh: AnswerGrade[] };
  try {
    const verifier = runtime.provider(models.verifier);
    const harmJudge = models.harm === models.verifier ? verifier : runtime.provider(models.harm);
    const decomposer = models.decomposer === models.verifier ? verifier : runtime.provider(models.decomposer);
    await runtime.useRun?.(manifest);
    graded = await gradeIntoResultsFile(
      outPath,
      manifest,
      inputs,
      {
        p: o.p,
        mode,
        repeats: o.repeats,
        rubric: rubric.text,
        verifier,
        harmJudge,
        decomposer,
        trustUnlocatedEvidence: o.trustUnlocatedEvidence,
        // Every judge call's usage as the server reported it, for the progress line.
        call: { onCall: (meta) => progress?.call(meta) },
      },
      {
        concurrency: settings.concurrency,
        onStart: (todo) => {
          progress = createProgress({ io, label: 'faithfulness', total: todo });
        },
        onGrade: (g) => progress?.tick({ ok: g.status !== 'failed' }),
      },
    ).finally(() => progress?.stop());
  } finally {
    runtime.close();
  }
  report(o, inputs, problems.length, graded.kept, graded.fresh, ctx, card);
}

/** The canonical id of a model string (what providers report); a runtime of its own (tests) may use others. */
function canonicalId(m: string): string {
  try {
    return modelId(parseModelString(m, '--judge'));
  } catch {
    return m;
  }
}

function report(
  o: FaithfulnessOptions,
  inputs: FaithfulnessInput[],
  skipped: number,
  kept: AnswerGrade[],
  fresh: AnswerGrade[],
  ctx: CliContext,
  card: CardNote | null = null,
) {
  const ids = new Set(inputs.map((i) => i.id));
  const grades = [...kept, ...fresh].filter((g) => ids.has(g.id));
  const summary = { ...summarizeFaithfulness(grades), input_problems: skipped, resumed: kept.length };
  const unsupported = unsupportedAcross(grades);
  if (ctx.globals().json)
    ctx.io.out(
      `${JSON.stringify({ summary, unsupported, out: o.out, ...(card ? { judge_card: card } : {}) }, null, 2)}\n`,
    );
  else {
    ctx.io.out(
      `${renderFaithfulnessSummary(summary)}input rows skipped  ${skipped}\n\n${renderUnsupported(unsupported)}`,
    );
    if (card) ctx.io.out(`\n${card.line}\n`);
    ctx.io.out(`\nper-answer results: ${o.out}\n`);
  }
  if (skipped > 0 || summary.failed > 0) ctx.setExitCode(1);
}

/** `--dry-run`: the calls, tokens and cost a run would need, per model, without calling one. */
function printEstimate(
  todo: FaithfulnessInput[],
  s: { mode: 'separate' | 'joint'; repeats: number; rubric: string },
  models: { verifier: string; harm: string; decomposer: string },
  settings: LlmSettings,
  ctx: CliContext,
) {
  const plan = planFaithfulness(todo, s);
  const rows = (['decomposer', 'verifier', 'harm'] as const).map((role) => {
    const model = models[role];
    const est = estimateCost(modelId(parseModelString(model)), plan[role], { prices: settings.prices });
    return { role, model, ...est };
  });
  const result = {
    answers: plan.answers,
    segments: plan.segments,
    estimated_claims: plan.estimatedClaims,
    calls: rows,
  };
  if (ctx.globals().json) ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    ctx.io.out(
      `dry run: ${plan.answers} answers, ${plan.segments} segments, ~${plan.estimatedClaims} claims (one per sentence; the decomposer decides)\n`,
    );
    for (const r of rows) {
      const cost = r.costUsd === null ? 'no price' : `$${r.costUsd.toFixed(4)}`;
      ctx.io.out(
        `  ${r.role.padEnd(10)} ${r.model}: ${r.calls} calls, ${r.inputTokens} input + ${r.outputTokens} output tokens, ${cost}\n`,
      );
    }
  }
}
