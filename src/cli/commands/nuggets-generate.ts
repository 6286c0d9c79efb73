import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ReportRequest } from '../../formats/index.js';
import {
  createPassageLocator,
  DEFAULT_EXACT_LIMIT,
  documentsInput,
  generateManifest,
  itemsInput,
  type NuggetDocument,
  NuggetPipeline,
  PLAN_ASSUMPTIONS,
  paperDocuments,
  planGeneration,
  type RequestInput,
  type RequestOutcome,
  readRequestDocuments,
  StepState,
} from '../../generate/index.js';
import { sha256OfFile } from '../../io/index.js';
import { type LlmProvider, modelId, parseModelString } from '../../llm/index.js';
import { chunkDocument, loadIndex, type Passage } from '../../retrieve/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, openCorpus } from '../corpus-option.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import {
  estimateCalls,
  fittedEmbed,
  modelCreator,
  nuggetsCommand,
  requireNuggetModel,
  stepProgress,
} from '../setup/nuggets-inputs.js';
import { numberOption, parseIntOption } from '../setup/option-parsers.js';
import { readRequests } from '../setup/report-runs-inputs.js';
import { noteTakeovers } from '../takeover-note.js';

interface GenerateFlags extends LlmFlags {
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

/** How the bank says it was made (`creator`; the released step 2 fills the same fields). */
export const PROMPT_STRATEGY =
  'citegeist-dogmatiq-1: summary in the document language, 1-6 English QA pairs answer-first, LLM-verified paraphrases (cosine >= threshold), canonical question, answer validation AND/OR (prompts: docs/nuggets.md)';

export const registerNuggetsGenerate: RegisterCommand = (program, ctx) => {
  const command = nuggetsCommand(program)
    .command('generate')
    .description(
      'generate a QA nugget bank per request from its documents (DoGMaTiQ: grounded QA, paraphrase clustering, answer validation); resumable',
    )
    .requiredOption('--requests <file>', 'requests JSONL (request_id, title, background, problem_statement)')
    .requiredOption('--out <dir>', 'output folder: one nugget bank v3 per request, judgments, step logs')
    .option(
      '--docs <path>',
      'documents per request: folder <request_id>/<doc_id>.json, or JSONL {request_id, doc_id, text, language}',
    )
    .option(
      CORPUS_OPTION[0],
      `${CORPUS_OPTION[1]}; without --docs, every paper is a document of every request`,
    )
    .option(
      '--embedder <spec>',
      'embedder for question similarity (the built-in one is LSA fitted on the questions of each request)',
      'default',
    )
    .option(
      '--threshold <cos>',
      'cosine at or above which two questions are checked as paraphrases',
      numberOption('--threshold', { min: 0, max: 1 }),
      0.9,
    )
    .option(
      '--no-english-only',
      'keep QA pairs with non-English text (dropped by default, as the released pipeline)',
    )
    .option(
      '--exact-limit <n>',
      'compare all question pairs up to this many questions, HNSW beyond',
      parseIntOption('--exact-limit', 2),
      DEFAULT_EXACT_LIMIT,
    )
    .option(
      '--max-doc-tokens <n>',
      "papers longer than this are split into sections (default: 3/4 of the model's context)",
      parseIntOption('--max-doc-tokens', 256),
    )
    .option(
      '--label <name>',
      "the run's name (default: the model, and the settings that differ from the defaults)",
    );
  addLlmOptions(command).action(async (flags: GenerateFlags) => {
    const settings = resolveLlmSettings(flags, ctx.config(), ctx.io.cwd);
    await runGenerate(flags, settings, ctx);
  });
};

/** Documents per request from --docs, or the corpus papers (split to fit) for every request. */
function loadInputs(flags: GenerateFlags, requests: ReportRequest[], ctx: CliContext, contextTokens: number) {
  const inputs: RequestInput[] = [];
  const missing: string[] = [];
  let locate:
    | ((doc: NuggetDocument, pair: { question: string; answer: string }) => string | undefined)
    | undefined;
  let close = () => {};
  if (flags.docs) {
    const byRequest = readRequestDocuments(resolve(ctx.io.cwd, flags.docs));
    for (const request of requests) {
      const docs = byRequest.get(request.id) ?? [];
      if (docs.length === 0) missing.push(request.id);
      else inputs.push({ request, docs });
    }
    return { inputs, missing, locate, close, source: flags.docs, maxDocTokens: null, passages: null };
  }
  const path = corpusPath(ctx, flags.corpus);
  const store = openCorpus(path);
  close = () => store.close();
  const maxTokens = flags.maxDocTokens ?? Math.floor(contextTokens * 0.75);
  const papers = store.ids().map((id) => store.get(id)!);
  const docs = papers.flatMap((p) => paperDocuments(p, maxTokens));
  // The passages `reports judge --docs <corpus>` reads: the index's, else the paper chunked the same way.
  const indexDir = join(dirname(path), 'index');
  const indexed = existsSync(join(indexDir, 'manifest.json')) ? loadIndex(indexDir).passages.toArray() : null;
  const byPaper = new Map<string, Passage[]>();
  const passages = indexed ?? papers.flatMap((d) => chunkDocument(d));
  for (const p of passages) byPaper.set(p.docId, [...(byPaper.get(p.docId) ?? []), p]);
  locate = createPassageLocator((id) => byPaper.get(id) ?? []);
  for (const request of requests) inputs.push({ request, docs });
  return {
    inputs,
    missing,
    locate,
    close,
    source: path,
    maxDocTokens: maxTokens,
    passages: itemsInput(
      new Map(passages.map((p) => [p.id, p.text])),
      indexed ? `index:${indexDir}` : `chunked:${path}`,
    ),
  };
}

async function runGenerate(flags: GenerateFlags, settings: LlmSettings, ctx: CliContext): Promise<void> {
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
