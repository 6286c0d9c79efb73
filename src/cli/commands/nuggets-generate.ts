import { DEFAULT_EXACT_LIMIT } from '../../generate/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION } from '../corpus-option.js';
import { addLlmOptions, resolveLlmSettings } from '../llm-options.js';
import { type GenerateFlags, runNuggetsGenerate } from '../setup/nuggets-generate-run.js';
import { nuggetsCommand } from '../setup/nuggets-inputs.js';
import { numberOption, parseIntOption } from '../setup/option-parsers.js';

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
    await runNuggetsGenerate(flags, settings, ctx);
  });
};
