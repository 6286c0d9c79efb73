import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { generateDataset, type ManifestEntry } from '../../generate/index.js';
import { readDocumentFile } from '../../ingest/index.js';
import { CorpusStore, PapersDir } from '../../store/index.js';
import type { RegisterCommand } from '../context.js';
import {
  addLlmOptions,
  createLlmRuntime,
  type LlmFlags,
  refuseDryRun,
  resolveLlmSettings,
} from '../llm-options.js';
import { createLazyProgress } from '../progress.js';
import { addPaperSourceOptions, paperSource } from './paper-source.js';

interface GenerateCliOptions extends LlmFlags {
  papers?: string;
  manifest?: string;
  corpus?: string;
  domain?: string;
  out: string;
  limit?: string;
}

type PaperList = { papers: { id: string; domain: string }[]; load: (id: string) => Promise<string | null> };

function fromManifest(path: string): PaperList {
  if (!existsSync(path))
    throw new CitegeistError(
      'MANIFEST_NOT_FOUND',
      `The manifest ${path} does not exist.`,
      'Run `citegeist collect openalex` first, or give --papers DIR.',
    );
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ManifestEntry);
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
    .option('--limit <n>', 'only the first n papers');
  addPaperSourceOptions(questions);
  addLlmOptions(questions).action(async (opts: GenerateCliOptions) => {
    const settings = resolveLlmSettings(opts, ctx.config(), ctx.io.cwd);
    const model = settings.model;
    if (!model || model === 'extractive') {
      throw new CitegeistError(
        'GENERATION_NEEDS_MODEL',
        'Dataset generation needs an LLM: there is no honest non-LLM way to write questions and rubrics.',
        'Give --model with a model string (openai:gpt-4.1-mini, anthropic:…, gemini:…, ollama:qwen2.5:7b) and its API key in the environment.',
      );
    }
    const list = opts.manifest
      ? fromManifest(resolve(ctx.io.cwd, opts.manifest))
      : opts.corpus
        ? fromCorpus(resolve(ctx.io.cwd, opts.corpus), opts.domain ?? '', ctx.io.cwd)
        : opts.papers
          ? fromDir(resolve(ctx.io.cwd, opts.papers), opts.domain ?? '', ctx.io.cwd)
          : null;
    if (!list)
      throw new CitegeistError(
        'NO_PAPERS',
        'No papers were given.',
        'Add --corpus FILE, --manifest FILE or --papers DIR.',
      );
    const papers = opts.limit ? list.papers.slice(0, Number(opts.limit)) : list.papers;
    refuseDryRun(settings, 'Dataset generation');
    const runtime = createLlmRuntime(settings, ctx.io.env);
    const progress = createLazyProgress({ io: ctx.io, label: 'papers' });
    runtime.onCall((call) => progress.call(call));
    const result = await generateDataset(
      runtime.provider(model),
      papers,
      list.load,
      resolve(ctx.io.cwd, opts.out),
      {
        // Papers at once (each makes several calls; the runtime caps calls in flight at --concurrency).
        concurrency: opts.concurrency === undefined ? 2 : settings.concurrency,
        onPaper: (g, _done, total) =>
          progress.tick(
            {
              ok: g.error === null,
              note: g.paperId,
              ...(g.error ? { problem: `${g.paperId}: ${g.error}` } : {}),
            },
            total,
          ),
      },
    ).finally(() => {
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
        : `${result.rows} rows from ${result.papers} paper(s) (${result.keptPapers} finished earlier) → ${opts.out}; repaired ${result.repaired}; dropped: ${dropped}; cost $${result.costUsd.toFixed(4)}\n`,
    );
    if (result.failedPapers.length > 0) ctx.setExitCode(1);
  });
};
