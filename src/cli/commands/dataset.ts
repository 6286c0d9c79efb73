import { resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { datasetMeta, importQasper, loadDataset, writeDataset } from '../../generate/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { readJsonFile } from './input-files.js';

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
        throw new CitegeistError(
          'DATASET_UNKNOWN_FORMAT',
          `Unknown import format "${format}".`,
          'Supported: qasper.',
        );
      }
      const path = resolve(ctx.io.cwd, file);
      const papersDir = opts.papers ? resolve(ctx.io.cwd, opts.papers) : undefined;
      const result = importQasper(readJsonFile(path, 'QASPER file'), {
        file: path,
        ...(papersDir ? { papersDir } : {}),
      });
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
        for (const e of result.errors.slice(0, 10)) text += `skipped ${e.where}: ${e.message}\n`;
        return text;
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
        for (const e of read.errors.slice(0, 10)) text += `skipped ${e.where}: ${e.message}\n`;
        return text;
      });
      if (read.errors.length > 0) ctx.setExitCode(1);
    });
};

function report(ctx: CliContext, json: unknown, text: () => string): void {
  ctx.io.out(ctx.globals().json ? `${JSON.stringify(json, null, 2)}\n` : text());
}
