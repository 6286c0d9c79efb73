import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CitegeistError, JsonlAppender, parseJsonl, readJsonlIds, readTextFile } from '../../core/index.js';
import {
  type AnswerGrade,
  type FaithfulnessInput,
  gradeFaithfulnessBatch,
  loadHarmRubric,
  planFaithfulness,
  readFaithfulnessInputs,
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
} from '../../grade/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { CliContext } from '../context.js';
import type { LlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import type { RuntimeFactory } from './grade-faithfulness.js';

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
}

/** Reads the answers, grades the ones not yet in --out, appends each as it completes, prints the summary. */
export async function runGradeFaithfulness(
  o: FaithfulnessOptions,
  settings: LlmSettings,
  makeRuntime: RuntimeFactory,
  ctx: CliContext,
): Promise<void> {
  const { io } = ctx;
  const judge = settings.judge;
  if (!judge) {
    throw new CitegeistError(
      'JUDGE_REQUIRED',
      'grade faithfulness needs a judge model and none was given.',
      'Pass --judge <model> (e.g. openai:gpt-4.1-mini) or set "judge" in citegeist.config.json.',
    );
  }
  const models = {
    verifier: judge,
    harm: o.joint ? judge : (o.harmJudge ?? judge),
    decomposer: o.decomposer ?? judge,
  };
  const { inputs, problems } = readFaithfulnessInputs(
    readTextFile(resolve(io.cwd, o.answers), 'answers file'),
  );
  for (const p of problems) io.err(`skipped ${o.answers} ${p.where}: ${p.problem}\n`);
  const rubric = loadHarmRubric(o.rubric, io.cwd);
  const outPath = resolve(io.cwd, o.out);
  const mode = o.joint ? ('joint' as const) : ('separate' as const);
  const done = readJsonlIds(outPath, 'id', (row) => row.status !== 'failed');
  const todo = inputs.filter((i) => !done.has(i.id));
  if (settings.dryRun) {
    printEstimate(todo, { mode, repeats: o.repeats, rubric: rubric.text }, models, settings, ctx);
    return;
  }
  const runtime = makeRuntime(settings, ctx);
  let out: JsonlAppender | undefined;
  const progress = createProgress({ io, label: 'faithfulness', total: todo.length });
  try {
    const verifier = runtime.provider(models.verifier);
    const harmJudge = models.harm === models.verifier ? verifier : runtime.provider(models.harm);
    const decomposer = models.decomposer === models.verifier ? verifier : runtime.provider(models.decomposer);
    checkResumeMeta(`${outPath}.meta.json`, {
      tool: 'citegeist',
      version: VERSION,
      method: 'vetscore',
      answers: o.answers,
      p: o.p,
      mode,
      repeats: o.repeats,
      rubric: rubric.name,
      judges: { decomposer: decomposer.id, verifier: verifier.id, harm: harmJudge.id },
      // Unverified support counts differently with the flag: scores with and without it differ.
      trust_unlocated_evidence: o.trustUnlocatedEvidence,
    });
    const appender = new JsonlAppender(outPath);
    out = appender;
    await gradeFaithfulnessBatch(
      todo,
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
        call: { onCall: (meta) => progress.call(meta) },
      },
      {
        concurrency: settings.concurrency,
        onGrade: (g) => {
          appender.append(g);
          progress.tick({ ok: g.status !== 'failed' });
        },
      },
    );
  } finally {
    progress.stop();
    out?.close();
    runtime.close();
  }
  report(o, inputs, problems.length, done.size, outPath, ctx);
}
function report(
  o: FaithfulnessOptions,
  inputs: FaithfulnessInput[],
  skipped: number,
  resumed: number,
  outPath: string,
  ctx: CliContext,
) {
  const ids = new Set(inputs.map((i) => i.id));
  const grades = latestRows(outPath).filter((g) => ids.has(g.id));
  const summary = { ...summarizeFaithfulness(grades), input_problems: skipped, resumed };
  const unsupported = unsupportedAcross(grades);
  if (ctx.globals().json) ctx.io.out(`${JSON.stringify({ summary, unsupported, out: o.out }, null, 2)}\n`);
  else {
    ctx.io.out(
      `${renderFaithfulnessSummary(summary)}input rows skipped  ${skipped}\n\n${renderUnsupported(unsupported)}`,
    );
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

/** Refuses to resume into an output graded with other settings (the scores would not be comparable). */
function checkResumeMeta(path: string, meta: Record<string, unknown>): void {
  const { version: _v, ...now } = meta;
  if (existsSync(path)) {
    const { version: _w, ...before } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (JSON.stringify(before) !== JSON.stringify(now)) {
      throw new CitegeistError(
        'OUTPUT_SETTINGS_MISMATCH',
        `${path} records other settings than this run (${JSON.stringify(before)} vs ${JSON.stringify(now)}).`,
        'Use a new --out file, or run with the settings recorded there.',
      );
    }
  }
  writeFileSync(path, `${JSON.stringify(meta, null, 2)}\n`);
}

/** The last parseable row per answer id in an output file (a retried failed answer supersedes it). */
function latestRows(path: string): AnswerGrade[] {
  const byId = new Map<string, AnswerGrade>();
  if (!existsSync(path)) return [];
  for (const line of parseJsonl(readTextFile(path, 'output file'))) {
    if (!line.ok) continue;
    const row = line.value as AnswerGrade;
    if (typeof row?.id === 'string') byId.set(row.id, row);
  }
  return [...byId.values()];
}
