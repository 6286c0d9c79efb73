import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { CitegeistError, JsonlAppender, parseJsonl, readJsonlIds, readTextFile } from '../../core/index.js';
import {
  type AnswerGrade,
  DEFAULT_HARM_EXPONENT,
  DEFAULT_HARM_RUBRIC,
  gradeFaithfulnessBatch,
  loadHarmRubric,
  readFaithfulnessInputs,
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
} from '../../grade/index.js';
import { createProvider, type LlmProvider, ResponseCache } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';

/** What the command needs from outside: how to turn a model string into a provider. */
export interface GradeFaithfulnessDeps {
  createProvider(model: string): LlmProvider;
}

interface Options {
  answers: string;
  judge?: string;
  harmJudge?: string;
  decomposer?: string;
  p: number;
  joint: boolean;
  repeats: number;
  rubric: string;
  concurrency?: number;
  out?: string;
}

const number = (name: string, min: number, integer: boolean) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new InvalidArgumentError(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}.`);
  }
  return n;
};

/**
 * The `grade` command, found if another module registered it (the ResearchQA grader, which has its
 * own action and options), else created. Commander checks the mandatory options of every ancestor
 * before a subcommand runs, so the parent's mandatory options are re-checked only when the parent's
 * own action runs.
 */
export function gradeCommand(program: Command): Command {
  const existing = program.commands.find((c) => c.name() === 'grade');
  if (!existing)
    return program.command('grade').description('grade answers and reports (see the subcommands)');
  const deferred = existing.options.filter((o) => o.mandatory);
  for (const option of deferred) option.makeOptionMandatory(false);
  existing.hook('preAction', (self, action) => {
    if (action !== self) return;
    for (const option of deferred) {
      if (self.getOptionValue(option.attributeName()) === undefined) {
        self.error(`error: required option '${option.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
      }
    }
  });
  return existing;
}

/**
 * A parent command parses the options it knows wherever they appear, so `--judge`, `--out` and
 * `--concurrency` given after `faithfulness` may land on `grade`: take them from there.
 */
function inherited(command: Command, name: string): unknown {
  return command.opts()[name] ?? command.parent?.opts()[name];
}

/** Registers `citegeist grade faithfulness` (VETSCORE, METHODS §3) on the `grade` command. */
export function gradeFaithfulnessCommand(
  deps: (ctx: CliContext, concurrency: number) => GradeFaithfulnessDeps,
): RegisterCommand {
  return (program, ctx) => {
    gradeCommand(program)
      .command('faithfulness')
      .description('risk-weighted claim-level faithfulness of long cited answers (VETSCORE)')
      .requiredOption(
        '--answers <file>',
        'answers JSONL: {id, question, answer, sources}, run rows or ResearchQA rows',
      )
      .option('--judge <model>', 'verification judge (also decomposer and harm judge unless given)')
      .option('--harm-judge <model>', 'harm-potential judge (default: --judge)')
      .option('--decomposer <model>', 'claim decomposer (default: --judge)')
      .option(
        '--p <number>',
        'harm exponent p (0 = verification only)',
        number('--p', 0, false),
        DEFAULT_HARM_EXPONENT,
      )
      .option('--joint', 'ablation: one prompt for verdict and harm', false)
      .option(
        '--repeats <k>',
        'run the judges k times (majority verdict, median harm)',
        number('--repeats', 1, true),
        1,
      )
      .option(
        '--rubric <name|file>',
        'harm rubric: veterinary, human-medicine, generic or a file',
        DEFAULT_HARM_RUBRIC,
      )
      .option('--concurrency <n>', 'concurrent model calls', number('--concurrency', 1, true))
      .option('--out <file>', 'per-answer results JSONL (resumable by answer id; required)')
      .exitOverride()
      .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) })
      .action((options: Options, command: Command) => {
        const o = resolveShared(options, command);
        const concurrency = o.concurrency ?? ctx.config().concurrency ?? 4;
        return runGradeFaithfulness({ ...o, concurrency }, deps(ctx, concurrency), ctx);
      });
  };
}

function resolveShared(options: Options, command: Command): Options & { out: string } {
  const out = inherited(command, 'out');
  if (typeof out !== 'string' || out === '') {
    throw new CitegeistError(
      'OUT_REQUIRED',
      'grade faithfulness needs --out <file>.',
      'Pass --out results.jsonl.',
    );
  }
  const o: Options & { out: string } = { ...options, out };
  const judge = inherited(command, 'judge');
  if (typeof judge === 'string') o.judge = judge;
  const concurrency = inherited(command, 'concurrency');
  if (concurrency !== undefined) o.concurrency = number('--concurrency', 1, true)(String(concurrency));
  return o;
}

async function runGradeFaithfulness(
  o: Options & { out: string },
  deps: GradeFaithfulnessDeps,
  ctx: CliContext,
): Promise<void> {
  const { io } = ctx;
  const judgeModel = o.judge ?? ctx.config().judge;
  if (!judgeModel) {
    throw new CitegeistError(
      'JUDGE_REQUIRED',
      'grade faithfulness needs a judge model and none was given.',
      'Pass --judge <model> (e.g. openai:gpt-4.1-mini) or set "judge" in citegeist.config.json.',
    );
  }
  const answersPath = resolve(io.cwd, o.answers);
  const outPath = resolve(io.cwd, o.out);
  const { inputs, problems } = readFaithfulnessInputs(readTextFile(answersPath, 'answers file'));
  for (const p of problems) io.err(`skipped ${o.answers} ${p.where}: ${p.problem}\n`);
  const rubric = loadHarmRubric(o.rubric, io.cwd);
  const verifier = deps.createProvider(judgeModel);
  const harmJudge = o.harmJudge ? deps.createProvider(o.harmJudge) : verifier;
  const decomposer = o.decomposer ? deps.createProvider(o.decomposer) : verifier;
  const settings = {
    p: o.p,
    mode: o.joint ? 'joint' : 'separate',
    repeats: o.repeats,
    rubric: rubric.name,
  } as const;
  const meta = {
    tool: 'citegeist',
    version: VERSION,
    method: 'vetscore',
    answers: o.answers,
    ...settings,
    rubric_path: rubric.path,
    judges: { decomposer: decomposer.id, verifier: verifier.id, harm: o.joint ? verifier.id : harmJudge.id },
  };
  checkResumeMeta(`${outPath}.meta.json`, meta);
  const done = readJsonlIds(outPath, 'id', (row) => row.status !== 'failed');
  const out = new JsonlAppender(outPath);
  try {
    await gradeFaithfulnessBatch(
      inputs,
      { ...settings, rubric: rubric.text, decomposer, verifier, harmJudge, call: {} },
      { concurrency: o.concurrency ?? 4, done, onGrade: (g) => out.append(g) },
    );
  } finally {
    out.close();
  }
  const ids = new Set(inputs.map((i) => i.id));
  const grades = latestRows(outPath).filter((g) => ids.has(g.id));
  const summary = { ...summarizeFaithfulness(grades), input_problems: problems.length, resumed: done.size };
  const unsupported = unsupportedAcross(grades);
  if (ctx.globals().json) io.out(`${JSON.stringify({ summary, unsupported, out: o.out }, null, 2)}\n`);
  else {
    io.out(
      `${renderFaithfulnessSummary(summary)}input rows skipped  ${problems.length}\n\n${renderUnsupported(unsupported)}`,
    );
    io.out(`\nper-answer results: ${o.out}\n`);
  }
  if (problems.length > 0 || summary.failed > 0) ctx.setExitCode(1);
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
  for (const line of parseJsonl(readTextFile(path, 'output file'))) {
    if (!line.ok) continue;
    const row = line.value as AnswerGrade;
    if (typeof row?.id === 'string') byId.set(row.id, row);
  }
  return [...byId.values()];
}

/** Real providers from model strings; keys and hosts from the CLI environment, responses cached when the config names a cache file. */
export const registerGradeFaithfulness = gradeFaithfulnessCommand((ctx, concurrency) => {
  const cachePath = ctx.config().cache;
  const cache = cachePath ? new ResponseCache(resolve(ctx.io.cwd, cachePath)) : null;
  return { createProvider: (model) => createProvider(model, { env: ctx.io.env, concurrency, cache }) };
});
