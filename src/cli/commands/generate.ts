import { resolve } from 'node:path';
import { estimateGeneration, generateDataset, paperList, questionsManifest } from '../../generate/index.js';
import { type LlmProvider, modelId, parseModelString } from '../../llm/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { addLlmOptions, createLlmRuntime, type LlmFlags, resolveLlmSettings } from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { printGenerationEstimate } from '../setup/generate-dry-run.js';
import { countOption } from '../setup/option-parsers.js';
import { addPaperSourceOptions } from '../setup/paper-source.js';
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
    const list = paperList({ ...opts, cwd: ctx.io.cwd });
    const papers = opts.limit ? list.papers.slice(0, opts.limit) : list.papers;
    const out = resolve(ctx.io.cwd, opts.out);
    const manifestOf = (llm: Pick<LlmProvider, 'id' | 'contextWindow'>) =>
      questionsManifest({ llm, domain: opts.domain ?? '', label: opts.label, version: VERSION });
    if (settings.dryRun) {
      // Planning needs the model's id and context window only: no provider, no key, no cache file.
      const info = { id: modelId(parseModelString(model)), contextWindow: null };
      const manifest = manifestOf(info);
      const estimate = await estimateGeneration(info, papers, list.load, out, manifest, settings.prices);
      printGenerationEstimate(ctx, manifest.label, estimate);
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
