import { resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { formatValidationMessage, validateRun } from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import type { RegisterCommand } from '../context.js';
import { countOption } from './option-parsers.js';
import { openDocuments, readRequests, reportsCommand } from './reports-inputs.js';

interface ValidateFlags {
  requests?: string;
  limit?: number;
  lengthMode: string;
  strictOnLength: boolean;
  docs?: string;
  ragtime: boolean;
}

export function parseLengthMode(value: string): 'characters' | 'words' {
  if (value !== 'characters' && value !== 'words') {
    throw new CitegeistError(
      'BAD_OPTION',
      `--length-mode ${quoteValue(value)} is not characters or words.`,
      'Pass --length-mode characters (NFKC code points) or words.',
    );
  }
  return value;
}

/** `citegeist reports validate RUN`: rag-run-validator's checks, with line numbers, plus RAGTIME's. */
export const registerReportsValidate: RegisterCommand = (program, ctx) => {
  reportsCommand(program)
    .command('validate')
    .description(
      'check a report run as rag-run-validator does: schema, length limits, missing topics (and unknown doc ids, RAGTIME rules)',
    )
    .argument(
      '<run>',
      'run file (JSONL: RAGTIME / rag-run-validator, NeuCLIR 2024 sentences, TREC RAG 2024 answers)',
    )
    .option('--requests <file>', 'requests/topics JSONL: their "limit" and the topic set to cover')
    .option('--limit <n>', 'length limit for topics whose request sets none', countOption('--limit'))
    .option('--length-mode <mode>', 'count the limit in NFKC characters or in words', 'characters')
    .option('--strict-on-length', 'a report over the limit is an error, not a warning', false)
    .option(
      '--docs <path>',
      'the collection: every cited id must be in it (corpus, {doc_id,text} JSONL or folder)',
    )
    .option(
      '--ragtime',
      'RAGTIME rules: {doc_id: confidence 0-100} citations, references = cited documents',
      false,
    )
    .action((run: string, flags: ValidateFlags) => {
      const { io } = ctx;
      const docs = flags.docs ? openDocuments(io.cwd, flags.docs) : null;
      try {
        const result = validateRun(readTextFile(resolve(io.cwd, run), 'run file'), run, {
          requests: flags.requests ? readRequests(io.cwd, flags.requests) : null,
          limit: flags.limit ?? null,
          lengthMode: parseLengthMode(flags.lengthMode),
          strictOnLength: flags.strictOnLength,
          docs: docs?.source ?? null,
          ragtime: flags.ragtime,
        });
        const errors = result.messages.filter((m) => m.level === 'error').length;
        const warnings = result.messages.length - errors;
        if (ctx.globals().json) {
          io.out(
            `${JSON.stringify({ run, reports: result.reports, errors, warnings, messages: result.messages }, null, 2)}\n`,
          );
        } else {
          for (const m of result.messages) io.out(`${formatValidationMessage(m)}\n`);
          io.out(
            `${run}: ${result.reports} reports, ${errors} errors, ${warnings} warnings${errors === 0 ? ' — valid' : ''}\n`,
          );
        }
        if (errors > 0) ctx.setExitCode(1);
      } finally {
        docs?.close();
      }
    });
};
