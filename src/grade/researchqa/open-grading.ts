import { resolve } from 'node:path';
import { CitegeistError, type DatasetRowRef, hashItems, quoteValue } from '../../core/index.js';
import { type DatasetIndex, indexRun, loadDatasetIndex, type RunIndex } from '../../formats/index.js';
import { checkCacheFile, checkReadDataset, type WarnLine, warnMissingFields } from '../../generate/index.js';
import { checkFinished, type PartialInput, sha256OfFile } from '../../io/index.js';
import {
  checkSource,
  type GradingPapers,
  loadGradingPapers,
  type PaperSourceOptions,
} from '../../store/index.js';
import type { AlternativeMatchMode } from './deterministic-grader.js';
import type { GradeRunOptions } from './grade-run.js';

/** The quote matcher citation accuracy uses. */
export type QuoteMode = 'researchqa' | 'strict';

/** What `openGrading` reads, and the settings of the deterministic metrics. */
export interface OpenGradingOptions {
  /** The dataset file (JSON, JSONL or parquet; see `loadDatasetIndex`). */
  dataset: string;
  /** The run files to grade against it. */
  runs: readonly string[];
  /** Where the papers' texts come from: a corpus file or a papers folder. */
  papers: PaperSourceOptions;
  /** Relative paths are resolved against it, and the workspace's caches kept under it (default: the process's). */
  cwd?: string;
  /** Quote ↔ evidence alternative match (default: researchqa, difflib ≥ 0.5). */
  match?: AlternativeMatchMode;
  /** Quote matcher for citation accuracy (default: researchqa). */
  quoteMode?: QuoteMode;
  /** The model name for runs that record none. */
  model?: string;
  /** Threads for the deterministic metrics (default: the machine's available parallelism). */
  threads?: number;
  /** false: skip the dataset check (only unreadable rows stop the grading). Default true. */
  check?: boolean;
  /** Grade run files still being written (their writer holds the lock); the result says which. */
  allowPartial?: boolean;
  /**
   * Load every paper the dataset names, not only those the runs need (so a grades manifest hashes
   * the same papers however far the run got). The dataset check reads them all anyway.
   */
  allPapers?: boolean;
  /** false: write nothing to the workspace (no papers cache, no kept check), as in a dry run. */
  writeCaches?: boolean;
  /** Warnings and notes, one line each (default: dropped). */
  warn?: WarnLine;
}

/** How the deterministic metrics are computed (shared by every run graded from one `openGrading`). */
export interface GradingSetup extends Omit<GradeRunOptions, 'judge' | 'concurrency' | 'onRow' | 'signal'> {
  paperText: (paperId: string) => string | null;
}

/** The dataset, runs, paper texts and grading settings a grading works from (see `openGrading`). */
export interface OpenedGrading {
  /** The dataset's rows as references, read whole when graded (see `loadDatasetIndex`). */
  dataset: DatasetRowRef[];
  /** sha256 of the dataset file's bytes. */
  datasetSha256: string;
  /** Releases the dataset and run files and the papers (call when done). */
  close(): void;
  /** The runs, their rows as references read whole when graded (see `indexRun`). */
  runs: RunIndex[];
  grading: GradingSetup;
  quoteMode: QuoteMode;
  /** sha256 of the text of every paper loaded (null: not found), for the grades manifest. */
  paperHashes: Map<string, string | null>;
  /**
   * Dataset and run rows read without a field that changes their scores (scored as an empty list),
   * by field, for the summary's `missing_fields`.
   */
  missingFields: Record<string, string[]>;
  /** Run files read while their writer was still writing them (with `allowPartial`). */
  partial: PartialInput[];
}

/**
 * Opens a ResearchQA grading: checks that no run is still being written, indexes the dataset and
 * the runs (rows are read whole when graded), runs the dataset check, and loads the papers: those
 * the dataset names when `allPapers` or when the dataset is checked, else those the runs need.
 * Refuses a run with no rows (NO_ROWS) or with no row id in the dataset (NOTHING_IN_COMMON);
 * unreadable run lines are warned about (up to ten per run) and left in `runs[i].errors`.
 */
export async function openGrading(options: OpenGradingOptions): Promise<OpenedGrading> {
  const cwd = options.cwd ?? process.cwd();
  const warn = options.warn ?? (() => {});
  const quoteMode = options.quoteMode ?? 'researchqa';
  checkArgument('match', options.match ?? 'researchqa', ['researchqa', 'span']);
  checkArgument('quoteMode', quoteMode, ['researchqa', 'strict']);
  checkSource(options.papers);
  // Before anything is read: a run whose writer still holds its lock is a part of a run.
  const partial = options.runs
    .map((f) => checkFinished(resolve(cwd, f), 'run file', options.allowPartial === true))
    .filter((p) => p !== null);
  for (const p of partial) {
    warn(
      `warning: ${p.path} is still being written by ${p.writer}: grading the rows it holds now (--allow-partial); the output is marked partial`,
    );
  }
  const read = await loadDatasetIndex(resolve(cwd, options.dataset));
  const closers = [() => read.close()];
  const close = () => {
    for (const c of closers.splice(0)) c();
  };
  try {
    return { ...(await openWith(options, cwd, warn, read, quoteMode, closers)), partial, close };
  } catch (error) {
    close();
    throw error;
  }
}

async function openWith(
  options: OpenGradingOptions,
  cwd: string,
  warn: WarnLine,
  read: DatasetIndex,
  quoteMode: QuoteMode,
  closers: (() => void)[],
): Promise<Omit<OpenedGrading, 'close' | 'partial'>> {
  const datasetPath = resolve(cwd, options.dataset);
  for (const w of read.warnings) warn(`warning: ${w}`);
  const writeCaches = options.writeCaches !== false;
  // With the check, every paper the dataset names is read (and read once: the check and the
  // grading share them); without it, those the runs need.
  let papers: GradingPapers | undefined;
  const loadPapers = async (ids: Iterable<string>) => {
    papers = await loadGradingPapers(ids, options.papers, cwd, (message) => warn(`warning: ${message}`), {
      cache: writeCaches,
    });
    const loaded = papers;
    closers.push(() => loaded.close());
    return loaded;
  };
  // The dataset file's hash names it in the grades manifest, and the check's results in the cache.
  const datasetSha256 = sha256OfFile(datasetPath, 'dataset').sha256;
  if (options.check !== false) {
    const all = await loadPapers(read.rows.map((r) => r.paper_id));
    const cache = { file: checkCacheFile(cwd, datasetSha256, hashItems(all.hashes)), write: writeCaches };
    const loadPaper = async (id: string) => {
      const text = all.text(id);
      return text === null ? null : { text, forms: all.forms(id) };
    };
    // Grading looks for the gold evidence (warnings only, as costly as grading a large run) only
    // through a check `answer` or `dataset check` kept here: validation stays off its path.
    await checkReadDataset(warn, datasetPath, read, loadPaper, true, cache, false, options.papers);
  } else {
    await checkReadDataset(warn, datasetPath, read, undefined, false);
  }
  const dataset = read.rows;
  const missingFields: Record<string, string[]> = {};
  warnMissingFields(warn, 'dataset', read.missingFields, missingFields);
  const runs: RunIndex[] = [];
  closers.push(() => {
    for (const run of runs) run.close();
  });
  for (const f of options.runs) {
    const run = indexRun(resolve(cwd, f), options.model ? { model: options.model } : {});
    runs.push(run);
    if (run.rows.length === 0) {
      throw new CitegeistError(
        'NO_ROWS',
        `The run file ${f} holds no run rows${run.errors.length > 0 ? ` (${run.errors.length} line(s) could not be read, e.g. ${run.errors[0]?.where}: ${run.errors[0]?.message})` : ''}.`,
        'Give the JSONL written by `citegeist answer`, or a published results file.',
      );
    }
    refuseForeignRun(f, run, dataset, options.dataset);
    for (const e of run.errors.slice(0, 10)) warn(`skipped [INVALID_INPUT] ${e.where}: ${e.message}`);
    warnMissingFields(warn, 'run', run.missingFields, missingFields);
  }
  if (!papers) {
    const neededIds = new Set(runs.flatMap((r) => r.rows.map((x) => x.row_id)));
    await loadPapers(
      dataset.filter((r) => options.allPapers === true || neededIds.has(r.row_id)).map((r) => r.paper_id),
    );
  }
  const { missing, text, forms, hashes } = papers!;
  if (missing.length > 0) {
    warn(
      `${missing.length} paper(s) not found (their citation accuracy is "failed"): ${missing.slice(0, 5).join(', ')}`,
    );
  }
  const grading: GradingSetup = {
    paperText: text,
    paperForms: forms,
    match: options.match ?? 'researchqa',
    quoteMode,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    onWorkerFailure: (message) => warn(`warning: ${message}`),
  };
  return { dataset, datasetSha256, runs, grading, quoteMode, paperHashes: hashes, missingFields };
}

/**
 * A run none of whose row ids is in the dataset was answered over another dataset: grading it
 * would write an empty grades file and succeed, so it is refused before anything is written.
 */
function refuseForeignRun(
  file: string,
  run: RunIndex,
  dataset: readonly DatasetRowRef[],
  datasetFile: string,
): void {
  const ids = new Set(dataset.map((r) => r.row_id));
  if (run.rows.some((r) => ids.has(r.row_id))) return;
  throw new CitegeistError(
    'NOTHING_IN_COMMON',
    `None of the ${run.rows.length} row ids of the run ${file} (e.g. ${run.rows
      .slice(0, 3)
      .map((r) => quoteValue(r.row_id))
      .join(', ')}) is in the dataset ${datasetFile}.`,
    'Grade the run against the dataset it answered (--dataset), or check that the row ids match.',
  );
}

function checkArgument(name: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `${name} ${quoteValue(value)} is not one of ${allowed.join(', ')}.`,
      `Pass ${name}: '${allowed[0]}'.`,
    );
  }
}
