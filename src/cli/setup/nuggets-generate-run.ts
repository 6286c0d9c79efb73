import { resolve } from 'node:path';
import type { ReportRequest } from '../../formats/index.js';
import {
  corpusDocumentInputs,
  documentsInput,
  fittedEmbed,
  generateManifest,
  modelCreator,
  NuggetPipeline,
  PLAN_ASSUMPTIONS,
  PROMPT_STRATEGY,
  planGeneration,
  type RequestOutcome,
  requestDocumentInputs,
  StepState,
} from '../../generate/index.js';
import { sha256OfFile } from '../../io/index.js';
import { type LlmProvider, modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { CliContext } from '../context.js';
import { corpusPath, openCorpus } from '../corpus-option.js';
import { createLlmRuntime, type LlmFlags, type LlmSettings } from '../llm-options.js';
import { noteTakeovers } from '../takeover-note.js';
import { estimateCalls, requireNuggetModel, stepProgress } from './nuggets-inputs.js';
import { readRequests } from './report-runs-inputs.js';

/** `citegeist nuggets generate`: the run behind the command's flags, its dry-run plan and summary. */

export interface GenerateFlags extends LlmFlags {
  requests: string;
  docs?: string;
  corpus?: string;
  out: string;
  embedder: string;
  threshold: number;
  englishOnly: boolean;
  exactLimit: number;
  maxDocTokens?: number;
  label?: string;
}

/** Documents per request from --docs, or the corpus papers (split to fit) for every request. */
function loadInputs(flags: GenerateFlags, requests: ReportRequest[], ctx: CliContext, contextTokens: number) {
  if (flags.docs) {
    const inputs = requestDocumentInputs(resolve(ctx.io.cwd, flags.docs), requests, flags.docs);
    return { ...inputs, close: () => {} };
  }
  const path = corpusPath(ctx, flags.corpus);
  const store = openCorpus(path);
  try {
    const maxTokens = flags.maxDocTokens ?? Math.floor(contextTokens * 0.75);
    const papers = store.ids().map((id) => store.get(id)!);
    return { ...corpusDocumentInputs(path, papers, requests, maxTokens), close: () => store.close() };
  } catch (error) {
    store.close();
    throw error;
  }
}

export async function runNuggetsGenerate(
  flags: GenerateFlags,
  settings: LlmSettings,
  ctx: CliContext,
): Promise<void> {
  const { io } = ctx;
  const model = requireNuggetModel(settings.model, 'generate', 'writes its questions and answers');
  const requestsPath = resolve(io.cwd, flags.requests);
  const requests = [...readRequests(io.cwd, flags.requests).values()];
  const outDir = resolve(io.cwd, flags.out);
  // A dry run plans from the model's id and context window only: no provider, no key, no cache.
  const runtime = settings.dryRun ? null : createLlmRuntime(settings, io.env);
  const provider = runtime?.provider(model) ?? null;
  const llm: Pick<LlmProvider, 'id' | 'contextWindow'> = provider ?? {
    id: modelId(parseModelString(model)),
    contextWindow: null,
  };
  const loaded = loadInputs(flags, requests, ctx, llm.contextWindow ?? 16_000);
  let state: StepState | null = null;
  try {
    for (const id of loaded.missing)
      io.err(`skipped request ${id}: no documents for it in ${loaded.source}\n`);
    const manifest = generateManifest({
      model: llm.id,
      label: flags.label,
      version: VERSION,
      threshold: flags.threshold,
      embedder: flags.embedder,
      englishOnly: flags.englishOnly,
      exactLimit: flags.exactLimit,
      maxDocTokens: loaded.maxDocTokens,
      requests: {
        ...sha256OfFile(requestsPath, 'requests file'),
        path: flags.requests,
        count: requests.length,
      },
      documents: documentsInput(
        loaded.inputs.map((i) => ({ requestId: i.request.id, docs: i.docs })),
        loaded.source,
      ),
      ...(loaded.passages ? { passages: loaded.passages } : {}),
    });
    const stateOptions = {
      dir: outDir,
      name: 'generate',
      manifest,
      command: 'citegeist nuggets generate',
      ownsBanks: true,
    };
    state = settings.dryRun ? StepState.inspect(stateOptions) : StepState.open(stateOptions);
    const pipelineOptions = {
      outDir,
      state,
      // The first run's date (the manifest's), so a resumed run writes the same bytes.
      creator: modelCreator(model, PROMPT_STRATEGY, new Date(state.manifest.created_at)),
      threshold: flags.threshold,
      filterEnglish: flags.englishOnly,
      exactLimit: flags.exactLimit,
      ...(loaded.locate ? { locate: loaded.locate } : {}),
      embed: fittedEmbed(flags.embedder, io.env),
      ...(runtime ? { progress: stepProgress(io, runtime) } : {}),
    };
    if (!runtime || !provider) {
      const planner = new NuggetPipeline({
        ...pipelineOptions,
        llm: { id: 'dry-run', family: 'none', contextWindow: null, generate: refuse, generateObject: refuse },
      });
      const pending = planner.pendingDocuments(loaded.inputs);
      const plan = planGeneration(pending);
      // Requests past step 1: their later calls counted from the logged QA pairs, when the
      // embedder runs here (a remote one would be called, which a dry run must not do).
      const local = /^(default|lsa|hashed|transformers)\b/.test(flags.embedder.trim());
      const later = local ? await planner.plannedLaterCalls(loaded.inputs) : { requests: 0, calls: [] };
      return printPlan(
        pending.length,
        { ...plan, calls: [...plan.calls, ...later.calls] },
        later.requests,
        settings,
        ctx,
      );
    }
    noteTakeovers(io, state.tookOverFrom);
    // On a queue, the calls belong to this run (its jobs are found again by a restarted command).
    await runtime.useRun(state.manifest);
    let priced = false;
    runtime.onCall((call) => {
      if (typeof call.costUsd === 'number') priced = true;
    });
    const outcomes = await new NuggetPipeline({ ...pipelineOptions, llm: provider }).run(loaded.inputs);
    printOutcomes(
      outcomes,
      loaded.missing,
      { ...runtime.totals, priced },
      state.manifest.label,
      flags.out,
      ctx,
    );
    if (outcomes.some((o) => o.blockedAt !== null) || loaded.missing.length > 0) ctx.setExitCode(1);
  } finally {
    state?.close();
    loaded.close();
    runtime?.close();
  }
}

const refuse = (): never => {
  throw new Error('dry run: no model call');
};

function printPlan(
  documents: number,
  plan: ReturnType<typeof planGeneration>,
  counted: number,
  settings: LlmSettings,
  ctx: CliContext,
): void {
  const steps = ['summary', 'qa', 'pair', 'canonical', 'validation'] as const;
  const rows = steps.map((step) => {
    const calls = plan.calls.filter((c) => c.step === step);
    const expanded = calls.flatMap((c) => Array.from({ length: c.count }, () => c));
    const est = estimateCalls(settings.model!, expanded, settings.prices);
    return {
      step,
      calls: est.calls,
      input_tokens: est.inputTokens,
      output_tokens: est.outputTokens,
      cost_usd: est.costUsd,
      // Steps 2–3 of documents still to process can only be estimated.
      estimated: documents > 0 && (step === 'pair' || step === 'canonical' || step === 'validation'),
    };
  });
  const total = rows.reduce(
    (t, r) => ({
      calls: t.calls + r.calls,
      input: t.input + r.input_tokens,
      output: t.output + r.output_tokens,
      cost: r.cost_usd === null || t.cost === null ? null : t.cost + r.cost_usd,
    }),
    { calls: 0, input: 0, output: 0, cost: 0 as number | null },
  );
  const result = {
    documents,
    requests_past_step_1: counted,
    model: settings.model,
    steps: rows,
    total,
    assumptions: PLAN_ASSUMPTIONS,
  };
  if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
  const money = (c: number | null) => (c === null ? 'no price' : `$${c.toFixed(4)}`);
  ctx.io.out(`dry run: ${documents} documents to process with ${settings.model} (no model was called)\n`);
  for (const r of rows) {
    ctx.io.out(
      `  ${r.step.padEnd(10)} ${String(r.calls).padStart(6)} calls ${String(r.input_tokens).padStart(9)} in ${String(r.output_tokens).padStart(8)} out  ${money(r.cost_usd)}${r.estimated ? '  (estimated)' : ''}\n`,
    );
  }
  ctx.io.out(
    `  total      ${String(total.calls).padStart(6)} calls ${String(total.input).padStart(9)} in ${String(total.output).padStart(8)} out  ${money(total.cost)}\n`,
  );
  if (counted > 0) {
    ctx.io.out(
      `  steps 2-3 of ${counted} requests past step 1 counted from their QA pairs: candidate pairs exactly, canonical questions and validations at most\n`,
    );
  }
  if (documents > 0)
    ctx.io.out(
      `  steps 2-3 assume ${PLAN_ASSUMPTIONS.questionsPerDocument} questions per document, ${PLAN_ASSUMPTIONS.candidatePairsPerQuestion} candidate pairs and ${PLAN_ASSUMPTIONS.validationCallsPerQuestion} validations per question (docs/nuggets.md)\n`,
    );
}

function printOutcomes(
  outcomes: RequestOutcome[],
  missing: string[],
  totals: {
    calls: number;
    failed: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    priced: boolean;
  },
  label: string,
  out: string,
  ctx: CliContext,
): void {
  if (ctx.globals().json) {
    ctx.io.out(
      `${JSON.stringify({ label, requests: outcomes, skipped_requests: missing, calls: totals, out }, null, 2)}\n`,
    );
    return;
  }
  for (const o of outcomes) {
    if (o.blockedAt !== null) {
      ctx.io.out(
        `${o.requestId}: stopped at step "${o.blockedAt}" after ${o.failures.length} failed calls (rerun to retry): ${o.failures[0]}\n`,
      );
      continue;
    }
    const m = o.merge!;
    ctx.io.out(
      `${o.requestId}: ${o.documents} documents (${o.documentsMalformed} without usable QA pairs), ${m.qa_pairs} QA pairs, ${m.unique_questions} questions, ${m.candidate_pairs} candidate pairs (${m.candidate_method}), ${m.verified_pairs} paraphrases → ${m.clusters} nuggets; ${o.nuggets} kept after answer validation, ${o.unanswerable} possibly unanswerable, ${o.droppedByModel} dropped\n`,
    );
    if (o.kept)
      ctx.io.out(
        `  kept as they are: ${o.kept.join(', ')} (changed since this run wrote them, e.g. scored in place by \`nuggets score-quality\`; delete a file to have it written again)\n`,
      );
  }
  ctx.io.out(
    `${totals.calls} model calls (${totals.failed} failed), ${totals.inputTokens.toLocaleString('en-US')} input + ${totals.outputTokens.toLocaleString('en-US')} output tokens, ${totals.priced || totals.calls === 0 ? `$${totals.costUsd.toFixed(4)}` : 'no price for this model'}\n`,
  );
  const written = outcomes.filter((o) => o.blockedAt === null).length;
  ctx.io.out(
    written === 0
      ? `no bank written: every request stopped (rerun the same command to retry; what finished is kept in ${out}/.state)\n`
      : `${written === outcomes.length ? '' : `${written} of ${outcomes.length} `}banks of "${label}": ${out}/nuggets_<request>.v3.json (how they were made: ${out}/generate.meta.json; select with \`citegeist nuggets select\`)\n`,
  );
}
