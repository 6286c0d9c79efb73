import { resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  cardFromLabelFile,
  certifySetJudge,
  type HumanSet,
  type JudgeCard,
  namingProvider,
  planCertify,
  readHumanSet,
  renderJudgeCard,
  setJudgeFor,
} from '../../grade/index.js';
import { readTextFile, writeFileAtomic } from '../../io/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, resolveLlmSettings } from '../llm-options.js';
import type { RuntimeFactory } from '../setup/faithfulness-runtime.js';
import { judgePassProgress } from '../setup/judge-pass-progress.js';
import {
  addMetaEvalJudgeOptions,
  type MetaEvalJudgeOptions as Options,
} from '../setup/meta-eval-judge-options.js';
import { metaEvalCommand } from './meta-eval-faithfulness.js';

/** `citegeist meta-eval judge`: a judge card from a labels file, or from running a citegeist judge on the set. */
export function metaEvalJudgeCommand(runtime: RuntimeFactory): RegisterCommand {
  return (program, ctx) => {
    const command = metaEvalCommand(program)
      .command('judge')
      .description(
        'judge card: agreement of a judge with people on a public human-judgment set (κ, α, correlations with bootstrap CIs, confusion, human ceiling)',
      );
    addMetaEvalJudgeOptions(command);
    addLlmOptions(command, { model: false, judge: true }).action(async (o: Options) => {
      // Where the sets are: --data, else $CITEGEIST_HUMAN_LABELS, else ./human-labels.
      const dir = resolve(ctx.io.cwd, o.data ?? ctx.io.env.CITEGEIST_HUMAN_LABELS ?? 'human-labels');
      const set = readHumanSet(o.set, dir, o.dimension);
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
      const settings = { ...o, limit: o.limit ?? null, version: VERSION };
      let card: JudgeCard | null;
      if (o.labels) {
        const made = cardFromLabelFile(
          set,
          readTextFile(resolve(ctx.io.cwd, o.labels), 'labels file'),
          o.labels,
          settings,
        );
        for (const p of made.problems)
          ctx.io.err(`skipped [INVALID_INPUT] ${o.labels} line ${p.line}: ${p.problem}\n`);
        if (made.problems.length > 0) ctx.setExitCode(1);
        card = made.card;
      } else card = await cardFromJudge(set, o, runtime, ctx);
      if (!card) return;
      if (o.out) writeFileAtomic(resolve(ctx.io.cwd, o.out), `${JSON.stringify(card, null, 2)}\n`);
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(card, null, 2)}\n`);
      else ctx.io.out(`${renderJudgeCard(card)}${o.out ? `card: ${o.out}\n` : ''}`);
    });
  };
}

/** Runs the judge on the set's sample (resumable) and makes its card; null after --dry-run. */
async function cardFromJudge(set: HumanSet, o: Options, makeRuntime: RuntimeFactory, ctx: CliContext) {
  const settings = resolveLlmSettings(o, ctx.config(), ctx.io.cwd);
  const lexical = settings.judge === 'lexical';
  const probeVerbosity = o.probeVerbosity === true;
  if (settings.dryRun) {
    const judge = setJudgeFor(
      set,
      o.judgeKind,
      lexical ? null : namingProvider(settings.judge!),
      probeVerbosity,
    );
    const plan = planCertify(set, judge, {
      ...o,
      limit: o.limit ?? null,
      probeVerbosity,
      prices: settings.prices,
    });
    const cost = plan.cost_usd === null ? 'no price' : `$${plan.cost_usd.toFixed(4)}`;
    ctx.io.out(
      ctx.globals().json
        ? `${JSON.stringify(plan, null, 2)}\n`
        : `dry run: ${judge.kind} judge ${judge.model} on ${plan.items} items of ${set.name}: ${plan.calls} calls, ${plan.input_tokens} input + ${plan.output_tokens} output tokens, ${cost}\n`,
    );
    return null;
  }
  const rt = lexical ? null : makeRuntime(settings, ctx);
  try {
    const judge = setJudgeFor(set, o.judgeKind, rt ? rt.provider(settings.judge!) : null, probeVerbosity);
    const judgmentsPath = resolve(
      ctx.io.cwd,
      o.judgments ?? `${o.out ?? `${set.name}-${judge.kind}`}.judgments.jsonl`,
    );
    const progress = judgePassProgress(ctx, rt);
    try {
      return await certifySetJudge(set, judge, {
        ...o,
        limit: o.limit ?? null,
        version: VERSION,
        judgmentsPath,
        probeVerbosity,
        concurrency: settings.concurrency,
        ...progress.hooks,
      });
    } finally {
      progress.stop();
    }
  } finally {
    rt?.close();
  }
}

export const registerMetaEvalJudge = metaEvalJudgeCommand((settings, ctx) =>
  createLlmRuntime(settings, ctx.io.env),
);
