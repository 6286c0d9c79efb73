import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CitegeistError, location, type RunManifest } from '../../core/index.js';
import {
  changedPapers,
  generateDataset,
  generationMessages,
  type ManifestEntry,
  maxPaperChars,
  progressFileOptions,
  progressPath,
  questionsManifest,
} from '../../generate/index.js';
import { readDocumentFile } from '../../ingest/index.js';
import { byField, inspectRunFile, parseJsonl, readTextFile, reorderRunFile } from '../../io/index.js';
import { estimateCost, type LlmProvider, modelId, parseModelString } from '../../llm/index.js';
import { CorpusStore, PapersDir } from '../../store/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  type LlmSettings,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { countOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions, paperSource } from '../setup/paper-source.js';
import { requireModel } from '../setup/require-model.js';

interface GenerateCliOptions extends LlmFlags {
  papers?: string;
  manifest?: string;
  corpus?: string;
  domain?: string;
  out: string;
  limit?: number;
  label?: string;
}

type PaperList = { papers: { id: string; domain: string }[]; load: (id: string) => Promise<string | null> };

function fromManifest(path: string): PaperList {
  const entries = parseJsonl(readTextFile(path, 'manifest')).map((entry) => {
    const e = entry.ok ? (entry.value as Partial<ManifestEntry> | null) : null;
    if (typeof e?.openalex_id !== 'string' || typeof e.file !== 'string') {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${location(path, entry.line)} is not a manifest entry with "openalex_id" and "file".`,
        'Give the manifest.jsonl written by `citegeist collect openalex`, or --papers DIR.',
      );
    }
    return e as ManifestEntry;
  });
  const files = new Map(entries.map((e) => [e.openalex_id, join(dirname(path), e.file)]));
  return {
    papers: entries.map((e) => ({ id: e.openalex_id, domain: e.domain })),
    load: async (id) => {
      const file = files.get(id);
      if (!file || !existsSync(file)) return null;
      return (await readDocumentFile(file, id)).map((d) => d.text).join('\n\n');
    },
  };
}

function fromDir(dir: string, domain: string, cwd: string): PaperList {
  const source = paperSource({ papers: dir }, cwd);
  const ids = PapersDir.open(dir).ids().sort();
  return { papers: ids.map((id) => ({ id, domain })), load: async (id) => (await source(id))?.text ?? null };
}

/** Every document of a corpus store; a document's own domain wins over --domain. */
function fromCorpus(path: string, domain: string, cwd: string): PaperList {
  const source = paperSource({ corpus: path }, cwd);
  const store = CorpusStore.open(path, { readonly: true });
  try {
    const papers = store.list().map((d) => ({ id: d.id, domain: d.domain ?? domain }));
    return { papers, load: async (id) => (await source(id))?.text ?? null };
  } finally {
    store.close();
  }
}

export const registerGenerate: RegisterCommand = (program, ctx) => {
  const generate = program.command('generate').description('generate benchmark datasets with an LLM');
  const questions = generate
    .command('questions')
    .description('generate ResearchQA rows per paper (METHODS §2.2): every quote verified verbatim (strict)')
    .option('--manifest <file>', 'manifest.jsonl from `citegeist collect openalex` (papers and domains)')
    .option('--domain <name>', 'domain recorded on rows from --papers', '')
    .requiredOption('--out <file>', 'dataset JSONL (resumed per paper if it exists)')
    .option('--limit <n>', 'only the first n papers', countOption('--limit'))
    .option('--label <name>', "the run's name (default: the model, and the domain when one is given)");
  addPaperSourceOptions(questions);
  addLlmOptions(questions).action(async (opts: GenerateCliOptions) => {
    const settings = resolveLlmSettings(opts, ctx.config(), ctx.io.cwd);
    const model = requireModel(settings.model, {
      problem:
        'Dataset generation needs an LLM: there is no honest non-LLM way to write questions and rubrics.',
      fix: 'Give --model with a model string (openai:gpt-4.1-mini, anthropic:…, gemini:…, ollama:qwen2.5:7b) and its API key in the environment.',
      notAModel: ['extractive'],
    });
    const list = opts.manifest
      ? fromManifest(resolve(ctx.io.cwd, opts.manifest))
      : opts.corpus
        ? fromCorpus(resolve(ctx.io.cwd, opts.corpus), opts.domain ?? '', ctx.io.cwd)
        : opts.papers
          ? fromDir(resolve(ctx.io.cwd, opts.papers), opts.domain ?? '', ctx.io.cwd)
          : null;
    if (!list)
      throw new CitegeistError(
        'OPTION_REQUIRED',
        'No papers were given.',
        'Add --corpus FILE, --manifest FILE or --papers DIR.',
      );
    const papers = opts.limit ? list.papers.slice(0, opts.limit) : list.papers;
    const out = resolve(ctx.io.cwd, opts.out);
    const manifestOf = (llm: Pick<LlmProvider, 'id' | 'contextWindow'>) =>
      questionsManifest({ llm, domain: opts.domain ?? '', label: opts.label, version: VERSION });
    if (settings.dryRun) {
      // Planning needs the model's id and context window only: no provider, no key, no cache file.
      const info = { id: modelId(parseModelString(model)), contextWindow: null };
      await printGenerationEstimate(ctx, info, papers, list.load, out, manifestOf(info), settings);
      return;
    }
    const runtime = createLlmRuntime(settings, ctx.io.env);
    const llm = runtime.provider(model);
    const manifest = manifestOf(llm);
    await runtime.useRun(manifest).catch((error: unknown) => {
      runtime.close();
      throw error;
    });
    const progress = createLazyProgress({ io: ctx.io, label: 'papers' });
    runtime.onCall((call) => progress.call(call));
    const result = await generateDataset(llm, papers, list.load, out, {
      manifest,
      // Papers at once (each makes several calls; the runtime caps calls in flight at --concurrency).
      // On a queue, as many as there may be calls in flight, so that every worker has work.
      concurrency: opts.concurrency === undefined && !settings.queue ? 2 : settings.concurrency,
      onPaper: (g, _done, total) =>
        progress.tick(
          {
            ok: g.error === null,
            note: g.paperId,
            ...(g.error ? { problem: `${g.paperId}: ${g.error}` } : {}),
          },
          total,
        ),
    }).finally(() => {
      progress.stop();
      runtime.close();
    });
    reorderRunFile(progressPath(out), {
      key: byField('paper_id'),
      command: 'citegeist generate questions',
      order: papers.map((p) => p.id),
      companions: [{ path: out, key: byField('paper_id') }],
    });
    const dropped =
      Object.entries(result.dropped)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    ctx.io.out(
      ctx.globals().json
        ? `${JSON.stringify(result, null, 2)}\n`
        : `${result.rows} rows from ${result.papers} paper(s) (${result.keptPapers} finished earlier${result.changedPapers.length ? `; ${result.changedPapers.length} redone because their text changed: ${result.changedPapers.slice(0, 5).join(', ')}${result.changedPapers.length > 5 ? ', …' : ''}` : ''}) → ${opts.out}; repaired ${result.repaired}; dropped: ${dropped}; cost $${result.costUsd.toFixed(4)}\n`,
    );
    if (result.failedPapers.length > 0) ctx.setExitCode(1);
  });
};

/** Output tokens assumed per paper: ~14 questions, each with 1–3 groups of 2–3 quotes of 50–200 words. */
const EXPECTED_GENERATION_TOKENS = 8000;

/** `generate questions --dry-run`: the first call of every paper left to do, priced; nothing called or written. */
async function printGenerationEstimate(
  ctx: CliContext,
  llm: Pick<LlmProvider, 'id' | 'contextWindow'>,
  papers: { id: string }[],
  load: (id: string) => Promise<string | null>,
  out: string,
  manifest: RunManifest,
  settings: LlmSettings,
): Promise<void> {
  const changed = await changedPapers(out, manifest, papers, load);
  const finished = new Set(
    inspectRunFile(progressPath(out), progressFileOptions(manifest, changed)).kept.map((r) =>
      String(r.paper_id),
    ),
  );
  const todo = papers.filter((p) => !finished.has(p.id));
  const requests = [];
  let missing = 0;
  for (const paper of todo) {
    const text = await load(paper.id);
    if (text === null) missing++;
    else requests.push({ messages: generationMessages(paper.id, text, maxPaperChars(llm)) });
  }
  const estimate = estimateCost(llm.id, requests, {
    prices: settings.prices,
    expectedOutputTokens: EXPECTED_GENERATION_TOKENS,
  });
  const result = {
    dry_run: true,
    label: manifest.label,
    papers: todo.length,
    kept: finished.size,
    missing,
    ...estimate,
  };
  if (ctx.globals().json) {
    ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cost = estimate.costUsd === null ? 'no price for this model' : `~$${estimate.costUsd.toFixed(4)}`;
  ctx.io.out(
    `dry run, nothing called or written: ${todo.length} papers to generate as "${manifest.label}" (${finished.size} finished earlier, ${missing} without text)\n` +
      `  ${estimate.calls} calls, ~${estimate.inputTokens} input + ~${estimate.outputTokens} output tokens (${EXPECTED_GENERATION_TOKENS} per paper assumed), ${cost}; a paper with quotes to repair makes one more call\n`,
  );
}
