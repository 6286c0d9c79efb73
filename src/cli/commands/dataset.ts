import { resolve } from 'node:path';
import { CitegeistError, hashItems, sha256Hex } from '../../core/index.js';
import { datasetMeta, loadDataset, writeDataset } from '../../formats/index.js';
import {
  checkCacheFile,
  checkDataset,
  formatDatasetProblems,
  importQasper,
  keepCheck,
} from '../../generate/index.js';
import { readJsonFile } from '../../io/index.js';
import { type PaperSourceOptions, paperSource } from '../../store/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { addPaperSourceOptions, paperSourceOf } from '../setup/paper-source.js';

export const registerDataset: RegisterCommand = (program, ctx) => {
  const dataset = program.command('dataset').description('import and convert benchmark datasets');
  dataset
    .command('import')
    .description('import an external dataset as citegeist rows (format: qasper)')
    .argument('<format>', 'qasper')
    .argument('<file>', 'QASPER native JSON, or questions_validation.json (then give --papers)')
    .option('--papers <dir>', 'folder of Markdown papers named <paper_id>.txt (for section labels)')
    .requiredOption('--out <file>', 'output dataset (.jsonl, or .json for the eval_dataset.json layout)')
    .action((format: string, file: string, opts: { papers?: string; out: string }) => {
      if (format !== 'qasper') {
        throw new CitegeistError('BAD_OPTION', `Unknown import format "${format}".`, 'Supported: qasper.');
      }
      const path = resolve(ctx.io.cwd, file);
      const papersDir = opts.papers ? resolve(ctx.io.cwd, opts.papers) : undefined;
      const result = importQasper(readJsonFile(path, 'QASPER file'), {
        file: path,
        ...(papersDir ? { papersDir } : {}),
      });
      if (result.rows.length === 0) {
        throw new CitegeistError(
          'NO_ROWS',
          `${file} yielded no rows as ${format}${result.errors.length > 0 ? ` (${result.errors.length} question(s) could not be read, e.g. ${result.errors[0]?.where}: ${result.errors[0]?.message})` : ''}; nothing was written.`,
          'Give the native QASPER JSON (e.g. qasper-dev-v0.3.json), or questions_validation.json with --papers.',
        );
      }
      writeDataset(resolve(ctx.io.cwd, opts.out), result.rows);
      const byType: Record<string, number> = {};
      for (const r of result.rows) byType[r.question_type] = (byType[r.question_type] ?? 0) + 1;
      const summary = {
        rows: result.rows.length,
        by_type: byType,
        papers: new Set(result.rows.map((r) => r.paper_id)).size,
        errors: result.errors,
        missing_papers: result.missingPapers,
        unlocated_evidence: result.unlocatedEvidence,
        out: opts.out,
      };
      report(ctx, summary, () => {
        const types = Object.entries(byType)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ');
        let text = `imported ${summary.rows} rows over ${summary.papers} papers (${types}) → ${opts.out}\n`;
        if (result.unlocatedEvidence > 0)
          text += `${result.unlocatedEvidence} evidence paragraph(s) not found in their paper (section label left empty)\n`;
        if (result.missingPapers.length > 0)
          text += `${result.missingPapers.length} paper(s) not found in --papers: ${result.missingPapers.slice(0, 5).join(', ')}\n`;
        for (const e of result.errors.slice(0, 10))
          text += `skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`;
        return text;
      });
      if (result.errors.length > 0) ctx.setExitCode(1);
    });
  const check = dataset
    .command('check')
    .description(
      'check a dataset before spending money: unreadable rows, duplicate row ids, empty questions, unknown paper ids, gold evidence the strict matcher cannot find (with the nearest passage)',
    )
    .argument(
      '<dataset>',
      'dataset (eval_dataset.json, JSONL, or the hub export as JSON, JSONL or .parquet)',
    );
  addPaperSourceOptions(check).action(async (file: string, opts: PaperSourceOptions) => {
    const path = resolve(ctx.io.cwd, file);
    const sourceOptions = paperSourceOf(ctx, opts);
    const withPapers = Boolean(sourceOptions.corpus || sourceOptions.papers);
    const read = await loadDataset(path);
    for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
    const source = withPapers ? paperSource(sourceOptions, ctx.io.cwd) : undefined;
    // Each paper's text hash, to keep the result where `answer` and `grade` look for it.
    const hashes = new Map<string, string | null>();
    const result = await checkDataset(
      read,
      source
        ? {
            loadPaper: async (id) => {
              const doc = await source(id);
              hashes.set(id, doc ? sha256Hex(doc.text) : null);
              return doc;
            },
          }
        : {},
    );
    if (source) {
      keepCheck(checkCacheFile(ctx.io.cwd, read.sha256, hashItems(hashes)), result);
    }
    report(ctx, { dataset: file, papers_checked: withPapers, ...result }, () => {
      let text = `${file}: ${result.rows} rows over ${result.papers} papers; ${result.errors.length} error(s), ${result.warnings.length} warning(s)\n`;
      if (withPapers)
        text += `gold evidence groups found by the strict matcher: ${result.evidence.located} of ${result.evidence.groups}\n`;
      else text += 'paper ids and gold evidence not checked: give --corpus or --papers\n';
      return text + formatDatasetProblems([...result.errors, ...result.warnings]);
    });
    if (result.errors.length > 0) ctx.setExitCode(1);
  });
  dataset
    .command('convert')
    .description('convert a dataset between eval_dataset.json and JSONL (by the output extension)')
    .argument('<in>', 'dataset (eval_dataset.json, JSONL, or the hub export as JSON, JSONL or .parquet)')
    .argument('<out>', 'output (.json → eval_dataset.json layout, otherwise JSONL)')
    .action(async (input: string, output: string) => {
      const read = await loadDataset(resolve(ctx.io.cwd, input));
      if (read.rows.length === 0) {
        throw new CitegeistError(
          'NO_ROWS',
          `${input} yielded no dataset rows${read.errors.length > 0 ? ` (${read.errors.length} could not be read, e.g. ${read.errors[0]?.where}: ${read.errors[0]?.message})` : ''}; nothing was written.`,
          'Check that it is a ResearchQA dataset (eval_dataset.json, JSONL rows, or the hub export).',
        );
      }
      const format = writeDataset(resolve(ctx.io.cwd, output), read.rows, datasetMeta(read));
      const summary = {
        rows: read.rows.length,
        layout: read.layout,
        evidence_layout: read.evidenceLayout,
        format,
        errors: read.errors,
        warnings: read.warnings,
        out: output,
      };
      for (const w of read.warnings) ctx.io.err(`warning: ${w}\n`);
      report(ctx, summary, () => {
        let text = `wrote ${read.rows.length} rows as ${format} → ${output} (read as ${read.layout})\n`;
        for (const e of read.errors.slice(0, 10))
          text += `skipped [INVALID_INPUT] ${e.where}: ${e.message}\n`;
        return text;
      });
      if (read.errors.length > 0) ctx.setExitCode(1);
    });
};

function report(ctx: CliContext, json: unknown, text: () => string): void {
  ctx.io.out(ctx.globals().json ? `${JSON.stringify(json, null, 2)}\n` : text());
}
