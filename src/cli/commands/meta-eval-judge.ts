import { basename, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  buildJudgeCard,
  chooseSetJudge,
  defaultJudgeKind,
  type HumanSet,
  type JudgeCard,
  type JudgeIdentity,
  judgmentsManifest,
  PaddedJudge,
  planSetJudge,
  pointwiseScores,
  readHumanSet,
  readLabelFile,
  renderJudgeCard,
  runSetJudge,
  SET_JUDGE_KINDS,
  type SetJudge,
  type SetJudgeKind,
  sampleItems,
  type VerbosityProbe,
  verbosityProbe,
} from '../../grade/index.js';
import { readTextFile, writeFileAtomic } from '../../io/index.js';
import { estimateCost, modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createProgress } from '../progress.js';
import type { RuntimeFactory } from '../setup/faithfulness-runtime.js';
import { choiceOption, countOption, seedOption } from '../setup/option-parsers.js';
import { metaEvalCommand } from './meta-eval-faithfulness.js';

interface Options extends LlmFlags {
  set: string;
  data?: string;
  dimension?: string;
  labels?: string;
  judgeKind?: SetJudgeKind;
  judgments?: string;
  reference?: 'gold' | 'each';
  limit?: number;
  sampleSeed: number;
  iterations: number;
  seed: number;
  out?: string;
  listItems?: boolean;
  judgeFamily?: string;
  probeVerbosity?: boolean;
}

/** Where the sets are: --data, else $CITEGEIST_HUMAN_LABELS, else ./human-labels. */
function dataDir(o: Options, ctx: CliContext): string {
  return resolve(ctx.io.cwd, o.data ?? ctx.io.env.CITEGEIST_HUMAN_LABELS ?? 'human-labels');
}

/** `citegeist meta-eval judge`: a judge card from a labels file, or from running a citegeist judge on the set. */
export function metaEvalJudgeCommand(runtime: RuntimeFactory): RegisterCommand {
  return (program, ctx) => {
    const command = metaEvalCommand(program)
      .command('judge')
      .description(
        'judge card: agreement of a judge with people on a public human-judgment set (κ, α, correlations with bootstrap CIs, confusion, human ceiling)',
      )
      .requiredOption('--set <name>', 'human-judgment set: check-covid, ragchecker, crowdrag25, alce-utility')
      .option('--data <dir>', 'folder holding the sets (default $CITEGEIST_HUMAN_LABELS or ./human-labels)')
      .option(
        '--dimension <name>',
        'the judged aspect (ragchecker: correctness|completeness|overall; crowdrag25: its 7 dimensions)',
      )
      .option(
        '--labels <file>',
        'a judge’s labels: JSONL {id, label|score} (a judgments file) or CSV/TSV with id,label',
      )
      .option(
        '--judge-kind <kind>',
        `with --judge: ${SET_JUDGE_KINDS.join(', ')} (default: claim-support for check-covid, else rubric)`,
        choiceOption('--judge-kind', SET_JUDGE_KINDS),
      )
      .option(
        '--judgments <file>',
        'with --judge: the judgments file (resumed when rerun; default <out>.judgments.jsonl)',
      )
      .option(
        '--reference <which>',
        'compare with the gold label or with each human label (default: gold where the set has one)',
        choiceOption('--reference', ['gold', 'each'] as const),
      )
      .option('--limit <n>', 'judge a stratified sample of n items', countOption('--limit'))
      .option('--sample-seed <n>', 'seed of the --limit sample', seedOption('--sample-seed'), 0)
      .option('--iterations <n>', 'bootstrap resamples', countOption('--iterations'), 10_000)
      .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 0)
      .option('--out <file>', 'write the card (JSON with its run manifest) here')
      .option('--list-items', 'print the set’s item ids and stop')
      .option(
        '--probe-verbosity',
        'with a rubric judge: judge every answer again padded with neutral text of the same topic and report the score shift',
      )
      .option(
        '--judge-family <family>',
        'with --labels: the judge model’s family (openai, meta, …) for the self-preference probe',
      );
    addLlmOptions(command, { model: false, judge: true }).action(async (o: Options) => {
      const set = readHumanSet(o.set, dataDir(o, ctx), o.dimension);
      if (o.listItems) return void ctx.io.out(`${set.items.map((i) => i.id).join('\n')}\n`);
      if ((o.labels === undefined) === (o.judge === undefined)) {
        throw new CitegeistError(
          o.labels ? 'CONFLICTING_OPTIONS' : 'OPTION_REQUIRED',
          o.labels
            ? '--labels and --judge were both given.'
            : 'meta-eval judge needs the judge’s labels or a judge to run.',
          'Pass --labels <file> (any id → label file) or --judge <model> (or lexical for check-covid).',
        );
      }
      const card = o.labels ? cardFromLabels(set, o, ctx) : await cardFromJudge(set, o, runtime, ctx);
      if (!card) return;
      if (o.out) writeFileAtomic(resolve(ctx.io.cwd, o.out), `${JSON.stringify(card, null, 2)}\n`);
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(card, null, 2)}\n`);
      else ctx.io.out(`${renderJudgeCard(card)}${o.out ? `card: ${o.out}\n` : ''}`);
    });
  };
}

function cardOptions(o: Options) {
  return {
    ...(o.reference ? { reference: o.reference } : {}),
    iterations: o.iterations,
    seed: o.seed,
    sample: { limit: o.limit ?? null, seed: o.sampleSeed },
    version: VERSION,
  };
}

function cardFromLabels(set: HumanSet, o: Options, ctx: CliContext): JudgeCard {
  const path = resolve(ctx.io.cwd, o.labels!);
  const labels = readLabelFile(readTextFile(path, 'labels file'), o.labels!, set);
  for (const p of labels.problems)
    ctx.io.err(`skipped [INVALID_INPUT] ${o.labels} line ${p.line}: ${p.problem}\n`);
  if (labels.problems.length > 0) ctx.setExitCode(1);
  const s = labels.manifest?.settings ?? {};
  const identity: JudgeIdentity = {
    model: typeof s.judge_model === 'string' ? s.judge_model : basename(o.labels!),
    prompt_version: typeof s.prompt_version === 'string' ? s.prompt_version : null,
    kind: typeof s.judge_kind === 'string' ? s.judge_kind : 'labels-file',
    family: o.judgeFamily ?? (typeof s.judge_family === 'string' ? s.judge_family : null),
  };
  return buildJudgeCard(set, labels, identity, cardOptions(o));
}

async function cardFromJudge(
  set: HumanSet,
  o: Options,
  makeRuntime: RuntimeFactory,
  ctx: CliContext,
): Promise<JudgeCard | null> {
  const settings = resolveLlmSettings(o, ctx.config(), ctx.io.cwd);
  const lexical = settings.judge === 'lexical';
  const rt = lexical || settings.dryRun ? null : makeRuntime(settings, ctx);
  try {
    const provider = rt ? rt.provider(settings.judge!) : null;
    const kind = o.judgeKind ?? defaultJudgeKind(set);
    if (o.probeVerbosity && kind !== 'rubric') {
      throw new CitegeistError(
        'BAD_OPTION',
        `--probe-verbosity measures how padding moves a pointwise score; the ${kind} judge gives none.`,
        'Use it with --judge-kind rubric (the default on ragchecker, crowdrag25 and alce-utility).',
      );
    }
    const judge =
      lexical || !settings.dryRun
        ? chooseSetJudge(kind, set, provider)
        : chooseSetJudge(kind, set, dryRunProvider(settings.judge!));
    const items = sampleItems(set, o.limit ?? null, o.sampleSeed);
    if (settings.dryRun) {
      const plan = planSetJudge(items, judge);
      if (o.probeVerbosity) plan.requests.push(...planSetJudge(items, new PaddedJudge(judge)).requests);
      const estimate = lexical
        ? null
        : estimateCost(
            modelId(parseModelString(settings.judge!)),
            plan.requests.map((messages) => ({ messages })),
            {
              prices: settings.prices,
              expectedOutputTokens: 150,
            },
          );
      const result = {
        items: plan.items,
        calls: plan.requests.length,
        input_tokens: estimate?.inputTokens ?? 0,
        output_tokens: estimate?.outputTokens ?? 0,
        cost_usd: estimate?.costUsd ?? null,
      };
      ctx.io.out(
        ctx.globals().json
          ? `${JSON.stringify(result, null, 2)}\n`
          : `dry run: ${judge.kind} judge ${judge.model} on ${plan.items} items of ${set.name}: ${result.calls} calls, ${result.input_tokens} input + ${result.output_tokens} output tokens, ${result.cost_usd === null ? 'no price' : `$${result.cost_usd.toFixed(4)}`}\n`,
      );
      return null;
    }
    const judgmentsPath = resolve(
      ctx.io.cwd,
      o.judgments ?? `${o.out ?? `${set.name}-${judge.kind}`}.judgments.jsonl`,
    );
    const run = async (j: SetJudge, path: string) => {
      const manifest = judgmentsManifest(set, j, {
        limit: o.limit ?? null,
        sampleSeed: o.sampleSeed,
        version: VERSION,
      });
      await rt?.useRun?.({ run_id: manifest.run_id, label: manifest.label, kind: 'judgments' });
      const progress = createProgress({ io: ctx.io, label: 'judge', total: items.length, unit: 'items' });
      rt?.onCall?.((call) => progress.call(call));
      try {
        const result = await runSetJudge(items, j, manifest, {
          outPath: path,
          concurrency: settings.concurrency,
          call: {},
          command: 'citegeist meta-eval judge',
          onItem: (item, v) =>
            progress.tick({
              ok: v.status === 'scored',
              note: item.id,
              ...(v.status === 'failed' ? { problem: `${item.id}: ${v.reason}` } : {}),
            }),
        });
        ctx.io.err(
          `judged ${result.judged} items (${result.resumed} already in ${path}), ${result.failed} judge failures\n`,
        );
        if (result.failed > 0) ctx.setExitCode(1);
      } finally {
        progress.stop();
      }
      return readTextFile(path, 'judgments file');
    };
    const text = await run(judge, judgmentsPath);
    let verbosity: VerbosityProbe | null = null;
    if (o.probeVerbosity) {
      const paddedPath = judgmentsPath.replace(/(\.jsonl)?$/, '.verbosity.jsonl');
      const padded = await run(new PaddedJudge(judge), paddedPath);
      verbosity = verbosityProbe(pointwiseScores(text, judgmentsPath), pointwiseScores(padded, paddedPath), {
        iterations: o.iterations,
        seed: o.seed,
        confidence: 0.95,
      });
    }
    const labels = readLabelFile(text, judgmentsPath, set);
    const sampled = new Set(items.map((i) => i.id));
    for (const id of [...labels.values.keys()]) if (!sampled.has(id)) labels.values.delete(id);
    return buildJudgeCard(
      set,
      labels,
      { model: judge.model, prompt_version: judge.promptVersion, kind: judge.kind, family: judge.family },
      { ...cardOptions(o), verbosity },
    );
  } finally {
    rt?.close();
  }
}

/** A provider that only names the model, for --dry-run (the plan builds prompts and never calls it). */
function dryRunProvider(spec: string) {
  const id = modelId(parseModelString(spec));
  const refuse = () => Promise.reject(new Error('dry run: no model calls'));
  return {
    id,
    family: id.split(':')[0] ?? id,
    contextWindow: null,
    generate: refuse,
    generateObject: refuse,
  };
}

export const registerMetaEvalJudge = metaEvalJudgeCommand((settings, ctx) =>
  createLlmRuntime(settings, ctx.io.env),
);
