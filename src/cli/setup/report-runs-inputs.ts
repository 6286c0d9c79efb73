import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError, quoteValue } from '../../core/index.js';
import {
  type LoadedBank,
  parseReportRun,
  parseRequests,
  type ReadRunResult,
  type ReportRequest,
  readNuggetBanks,
} from '../../formats/index.js';
import {
  type CitedDocumentSource,
  corpusDocuments,
  folderDocuments,
  jsonlDocuments,
} from '../../grade/index.js';
import { assertRegularInput, readTextFile } from '../../io/index.js';
import { CorpusStore } from '../../store/index.js';
import type { CliContext } from '../context.js';

/** The `reports` command, found if another module registered it, else created. */
export function reportsCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'reports') ??
    program
      .command('reports')
      .description(
        'long cited reports: validate runs, judge and score them with nuggets (ARGUE), generate them',
      )
  );
}

/** Run files: each path a JSONL file or a folder of them; the file name stands in for a missing run id. */
export function readRuns(cwd: string, paths: readonly string[]): ReadRunResult & { files: string[] } {
  const out: ReadRunResult & { files: string[] } = { reports: [], problems: [], files: [] };
  for (const p of paths) {
    const path = resolve(cwd, p);
    const files =
      existsSync(path) && statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((f) => /\.jsonl?$/.test(f))
            .sort()
            .map((f) => join(path, f))
        : [path];
    for (const file of files) {
      const stem = basename(file).replace(/\.jsonl?$/, '');
      const read = parseReportRun(readTextFile(file, 'run file'), file, stem);
      out.reports.push(...read.reports);
      out.problems.push(...read.problems);
      out.files.push(file);
    }
  }
  refuseEmptyOrRepeated(out, paths);
  return out;
}

/**
 * A report run set with no report is an error (judging it would write an empty output and succeed),
 * and so is one report per run and topic given twice: judging it twice would count it twice, and
 * which of two differing reports is the run's is not ours to choose.
 */
function refuseEmptyOrRepeated(runs: ReadRunResult, paths: readonly string[]): void {
  if (runs.reports.length === 0 && runs.problems.length === 0) {
    throw new CitegeistError(
      'NO_ROWS',
      `No report was found in ${paths.join(', ')} (empty files, or a folder without *.jsonl runs).`,
      'Give report run JSONL files (one report per line), or a folder of them.',
    );
  }
  const seen = new Map<string, string>();
  for (const r of runs.reports) {
    const key = `${r.runId}\u0000${r.topicId}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `Run ${quoteValue(r.runId)} has two reports for topic ${quoteValue(r.topicId)}: ${first} and ${r.where}.`,
        'Keep one report per run and topic (remove the repeated line, or give the two files different run ids).',
      );
    }
    seen.set(key, r.where);
  }
}

export function readRequests(cwd: string, file: string): Map<string, ReportRequest> {
  const path = resolve(cwd, file);
  return parseRequests(readTextFile(path, 'requests file'), path);
}

export function readBanks(cwd: string, path: string): Map<string, LoadedBank> {
  return readNuggetBanks(resolve(cwd, path));
}

function isSqlite(path: string): boolean {
  assertRegularInput(path, 'documents file');
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1').startsWith('SQLite format 3');
  } finally {
    closeSync(fd);
  }
}

/**
 * The cited documents `--docs` names: a citegeist corpus file (paper and passage ids; its index
 * folder beside it), a folder of `<doc_id>.txt` files, or a JSONL of `{doc_id, text}`.
 */
export function openDocuments(cwd: string, spec: string): { source: CitedDocumentSource; close(): void } {
  const path = resolve(cwd, spec);
  if (!existsSync(path)) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The documents path ${path} does not exist.`,
      'Pass --docs with a citegeist corpus (.sqlite), a JSONL of {doc_id, text}, or a folder of <doc_id>.txt files.',
    );
  }
  // Every source is named as given (relative to the working folder), so the judgments' .meta.json
  // records no machine path and a study replayed elsewhere writes the same bytes.
  if (statSync(path).isDirectory()) return { source: folderDocuments(path, spec), close() {} };
  if (isSqlite(path)) {
    const store = CorpusStore.open(path, { readonly: true });
    return {
      source: corpusDocuments(store, join(dirname(path), 'index'), spec),
      close: () => store.close(),
    };
  }
  return { source: jsonlDocuments(readTextFile(path, 'documents file'), spec), close() {} };
}

/** Prints the lines a reader skipped and returns how many. */
export function reportProblems(
  ctx: CliContext,
  problems: readonly { where: string; problem: string }[],
): number {
  for (const p of problems) ctx.io.err(`skipped [INVALID_INPUT] ${p.where}: ${p.problem}\n`);
  return problems.length;
}
