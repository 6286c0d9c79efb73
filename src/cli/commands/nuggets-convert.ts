import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  answerEntries,
  type Creator,
  isQuestion,
  type NuggetBank,
  nuggetBankFileName,
  nuggetEntries,
  readNuggetBanks,
  readNuggetFile,
  toLegacyV1,
  toNeuclirEvaluation,
  toNuggetizer,
  writeNuggetBankFile,
} from '../../formats/index.js';
import { ResultFolder } from '../../generate/index.js';
import { writeFileAtomic } from '../../io/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { mean, median } from '../../stats/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { nuggetsCommand } from './nuggets-inputs.js';
import { choiceOption } from './option-parsers.js';
import { hashInputs } from './reports-inputs.js';

const TARGETS = ['v3', 'nuggetizer', 'neuclir', 'v1'] as const;
type Target = (typeof TARGETS)[number];

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
      // How the files were made: the source, its formats and hash, the target format.
      const meta = {
        tool: 'citegeist',
        version: VERSION,
        created_at: new Date().toISOString(),
        command: 'nuggets convert',
        to: flags.to,
        from: [...new Set(loaded.map((l) => l.format))].sort(),
        inputs_sha256: hashInputs(ctx.io.cwd, [flags.in]),
        requests: banks.length,
      };
      if (flags.to === 'v3') {
        const files = banks.map((b) => nuggetBankFileName(b));
        const folder = ResultFolder.open(out, 'convert', 'citegeist nuggets convert');
        try {
          folder.begin(files);
          banks.forEach((bank, i) => void writeNuggetBankFile(join(out, files[i]!), bank));
          folder.finish(meta, files);
        } finally {
          folder.close();
        }
      } else {
        const convert: (b: NuggetBank) => unknown =
          flags.to === 'nuggetizer'
            ? toNuggetizer
            : flags.to === 'neuclir'
              ? toNeuclirEvaluation
              : toLegacyV1;
        const lines = banks.map((b) => stringifyPythonJson(convert(b), { ensureAscii: false }));
        writeFileAtomic(out, `${lines.join('\n')}\n`);
        writeFileAtomic(`${out}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`);
      }
      const how = flags.to === 'v3' ? join(flags.out, 'convert.meta.json') : `${flags.out}.meta.json`;
      ctx.io.out(`converted ${banks.length} banks to ${flags.to}: ${flags.out} (how: ${how})\n`);
    });
};

/** Per-bank figures for `nuggets stats`. */
export function bankStats(bank: NuggetBank) {
  const entries = nuggetEntries(bank);
  const questions = entries.filter(([, n]) => isQuestion(n));
  const answers = questions.map(([, n]) => (isQuestion(n) ? answerEntries(n).length : 0));
  const docs = new Set<string>();
  let references = 0;
  for (const [, n] of questions) {
    if (!isQuestion(n)) continue;
    for (const [, a] of answerEntries(n)) {
      for (const r of a.references ?? []) {
        references++;
        docs.add(r.doc_id);
      }
    }
  }
  const aggregators: Record<string, number> = {};
  for (const [, n] of entries) {
    const agg = n.aggregator_type ?? 'OR (unset)';
    aggregators[agg] = (aggregators[agg] ?? 0) + 1;
  }
  const creators = new Map<string, number>();
  for (const [, n] of entries) {
    const list = n.creator == null ? [] : Array.isArray(n.creator) ? n.creator : [n.creator];
    const names = list.length ? list.map(creatorName) : ['(none)'];
    for (const c of new Set(names)) creators.set(c, (creators.get(c) ?? 0) + 1);
  }
  const totals = entries
    .map(([, n]) => n.metadata?.num_paraphrases_total)
    .filter((v): v is number => typeof v === 'number');
  return {
    request: bank.query_id ?? null,
    nuggets: entries.length,
    questions: questions.length,
    claims: entries.length - questions.length,
    answers: answers.reduce((a, b) => a + b, 0),
    answers_per_nugget: answers.length
      ? { mean: mean(answers), median: median(answers), max: Math.max(...answers) }
      : null,
    aggregators,
    references,
    cited_documents: docs.size,
    sources: Object.fromEntries(creators),
    paraphrases_total: totals.length ? totals.reduce((a, b) => a + b, 0) : null,
    with_quality: entries.filter(([, n]) => n.metadata?.quality != null).length,
  };
}

function creatorName(c: Creator): string {
  if (c.is_human) return `human${c.assessor_id ? ` (${c.assessor_id})` : ''}`;
  return `model ${c.llm_model ?? '?'}`;
}

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
