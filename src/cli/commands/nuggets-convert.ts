import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readNuggetBanks, readNuggetFile } from '../../formats/index.js';
import { bankStats, convertNuggetBanks, NUGGET_TARGETS, type NuggetTarget } from '../../generate/index.js';
import { hashInputs } from '../../io/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { nuggetsCommand } from '../setup/nuggets-inputs.js';
import { choiceOption } from '../setup/option-parsers.js';

const TARGETS = NUGGET_TARGETS;
type Target = NuggetTarget;

export const registerNuggetsConvert: RegisterCommand = (program, ctx) => {
  nuggetsCommand(program)
    .command('convert')
    .description(
      'convert nugget files between nugget bank v3, nuggetizer JSONL, NeuCLIR 2024 JSONL and legacy v1',
    )
    .requiredOption('--in <path>', 'nugget file or folder (any of the four formats, detected per file)')
    .requiredOption('--to <format>', TARGETS.join(' | '), choiceOption('--to', TARGETS))
    .requiredOption(
      '--out <path>',
      'a folder for v3 (one bank per request), else a JSONL file (one request per line)',
    )
    .action((flags: { in: string; to: Target; out: string }) => {
      const input = resolve(ctx.io.cwd, flags.in);
      const loaded = [...readNuggetBanks(input).values()];
      const banks = loaded.map((l) => l.bank);
      const out = resolve(ctx.io.cwd, flags.out);
      const inputFolder = statSync(input).isDirectory() ? input : dirname(input);
      if (out === input || (flags.to === 'v3' && out === inputFolder)) {
        throw new CitegeistError(
          'CONFLICTING_OPTIONS',
          `--out ${flags.out} is where the nugget files are read from.`,
          'Write the converted files somewhere else.',
        );
      }
      convertNuggetBanks(loaded, flags.to, out, {
        version: VERSION,
        createdAt: new Date().toISOString(),
        inputsSha256: hashInputs(ctx.io.cwd, [flags.in]),
      });
      const how = flags.to === 'v3' ? join(flags.out, 'convert.meta.json') : `${flags.out}.meta.json`;
      ctx.io.out(`converted ${banks.length} banks to ${flags.to}: ${flags.out} (how: ${how})\n`);
    });
};

export const registerNuggetsStats: RegisterCommand = (program, ctx) => {
  nuggetsCommand(program)
    .command('stats')
    .description('counts per nugget bank: nuggets, answers per nugget, AND/OR, references and sources')
    .requiredOption('--bank <path>', 'nugget file or folder (any format)')
    .action((flags: { bank: string }) => {
      // File by file: a folder may hold several banks of one request (e.g. selections to compare).
      const path = resolve(ctx.io.cwd, flags.bank);
      const files =
        existsSync(path) && statSync(path).isDirectory()
          ? readdirSync(path)
              .filter((f) => /\.jsonl?(\.gz)?$/i.test(f) && !f.endsWith('.meta.json'))
              .sort()
              .map((f) => join(path, f))
          : [path];
      const stats = files.flatMap((f) =>
        readNuggetFile(f).map((l) => ({ file: basename(f), ...bankStats(l.bank) })),
      );
      if (stats.length === 0) {
        throw new CitegeistError(
          'NO_ROWS',
          `${flags.bank} holds no nugget file (*.json, *.jsonl, *.json.gz), so there is nothing to count.`,
          'Point --bank at a nugget bank file or a folder of them.',
        );
      }
      if (ctx.globals().json) return void ctx.io.out(`${JSON.stringify(stats, null, 2)}\n`);
      for (const s of stats) {
        const per = s.answers_per_nugget;
        ctx.io.out(
          `${s.file} (${s.request}): ${s.nuggets} nuggets (${s.questions} questions, ${s.claims} claims), ${s.answers} answers` +
            (per
              ? ` (per nugget mean ${(per.mean ?? 0).toFixed(2)}, median ${per.median}, max ${per.max})`
              : '') +
            `; ${Object.entries(s.aggregators)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}; ${s.references} references to ${s.cited_documents} documents` +
            `; sources: ${Object.entries(s.sources)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}` +
            (s.paraphrases_total !== null ? `; ${s.paraphrases_total} paraphrases` : '') +
            (s.with_quality ? `; ${s.with_quality} with quality scores` : '') +
            '\n',
        );
      }
    });
};
