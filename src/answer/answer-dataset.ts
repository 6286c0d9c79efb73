import { resolve } from 'node:path';
import {
  type DatasetRow,
  type Document,
  hashItems,
  papersInputOfHashes,
  type RunManifest,
  sha256Hex,
} from '../core/index.js';
import { loadDataset } from '../formats/index.js';
import { checkCacheFile, checkReadDataset, type WarnLine } from '../generate/index.js';
import { byField, reorderRunFile, writeFileAtomic } from '../io/index.js';
import type { PriceTable, ProviderEnv } from '../llm/index.js';
import { describeSource, type PaperSourceOptions, paperSource } from '../store/index.js';
import { preparePaper } from '../text/index.js';
import { VERSION } from '../version.js';
import { answerManifest } from './answer-manifest.js';
import type { Answerer } from './answerer.js';
import { type AnswerEstimate, estimateRunFile } from './estimate.js';
import { type HarnessOptions, type HarnessResult, runAnswers } from './harness.js';
import type { AnswerPlanner } from './llm-answerer.js';
import { openPaperRetrieval } from './open-paper-retrieval.js';
import { PaperContext } from './paper-context.js';
import { qasperPrediction } from './qasper-predictions.js';

/** What `openAnswering` reads and how the run is named. */
export interface OpenAnsweringOptions {
  /** The dataset file (JSON, JSONL or parquet). */
  dataset: string;
  /** The run file (JSONL), resumed if it exists. */
  out: string;
  /** Where the papers' texts come from: a corpus file or a papers folder. */
  papers: PaperSourceOptions;
  /** The answerer, or for a dry run an LLM answerer's planner. */
  answerer: Answerer | AnswerPlanner;
  /** Relative paths are resolved against it, the workspace's caches kept under it (default: the process's). */
  cwd?: string;
  /** How the answerer gets a paper: auto (whole paper if it fits, else retrieval), full, retrieval. Default auto. */
  context?: 'auto' | 'full' | 'retrieval';
  /** Answer only the first n rows (every paper is still loaded and hashed). */
  limit?: number;
  /** false: skip the dataset check (only unreadable rows stop the run). Default true. */
  check?: boolean;
  /** The run's name (default: the model and the settings that differ from the defaults). */
  label?: string;
  /** How the answerer's own passage source ranks (another engine's run, `--retrieved`); else within-paper retrieval is opened. */
  retriever?: string;
  /** false: write nothing to the workspace (no papers cache, no kept check), as in a dry run. */
  writeCaches?: boolean;
  /** Where an embedder's key is read from, for within-paper retrieval (default: none). */
  env?: ProviderEnv;
  /** Warnings and notes, one line each (default: dropped). */
  warn?: WarnLine;
}

/** A dataset ready to be answered (or priced): its rows, papers, retrieval and the run's manifest. */
export interface OpenedAnswering {
  /** Every row of the dataset, and those to answer (`limit`). */
  all: DatasetRow[];
  rows: DatasetRow[];
  answerer: Answerer | AnswerPlanner;
  /** The run file, absolute. */
  out: string;
  manifest: RunManifest;
  /** A paper's context for the answerer (null: not found). */
  context(paperId: string): PaperContext | null;
}

/**
 * Opens a dataset for answering: loads every paper the dataset names (hashed into the manifest, so
 * a changed paper is noticed before a resume mixes answers from two versions of it), runs the
 * dataset check before any model is called (kept in the workspace by dataset and paper texts,
 * where grading finds it too), and opens within-paper retrieval where rows retrieve.
 */
export async function openAnswering(options: OpenAnsweringOptions): Promise<OpenedAnswering> {
  const cwd = options.cwd ?? process.cwd();
  const warn = options.warn ?? (() => {});
  const context = options.context ?? 'auto';
  const { answerer } = options;
  const writeCaches = options.writeCaches !== false;
  const datasetPath = resolve(cwd, options.dataset);
  const source = paperSource(options.papers, cwd, { cache: writeCaches });
  const read = await loadDataset(datasetPath);
  for (const w of read.warnings) warn(`warning: ${w}`);
  const all = read.rows;
  const rows = options.limit !== undefined ? all.slice(0, options.limit) : all;
  const docs = await loadDocuments(all, source);
  const datasetSha256 = read.sha256;
  const texts = new Map([...docs].map(([id, doc]) => [id, doc?.text ?? null]));
  // Each paper hashed once: for the kept check's key and for the manifest.
  const paperHashes = new Map([...texts].map(([id, text]) => [id, text === null ? null : sha256Hex(text)]));
  await checkReadDataset(
    warn,
    datasetPath,
    read,
    async (id) => {
      const text = texts.get(id);
      return text == null ? null : { text };
    },
    options.check !== false,
    {
      file: checkCacheFile(cwd, datasetSha256, hashItems(paperHashes)),
      write: writeCaches,
    },
    true,
    options.papers,
  );
  // Every row retrieves for the extractive answerer and context retrieval; with auto, only
  // papers too long for the model do (a stale index is then set aside with a note, not refused).
  const everyRow = answerer.id === 'extractive' || context === 'retrieval';
  const retrieval =
    everyRow || context === 'auto'
      ? openPaperRetrieval({
          corpusPath: options.papers.corpus ? resolve(cwd, options.papers.corpus) : undefined,
          strict: everyRow,
          ...(options.env ? { env: options.env } : {}),
        })
      : null;
  if (retrieval?.note) warn(`note: ${retrieval.note}`);
  const contexts = new Map<string, PaperContext | null>();
  const paperContext = (id: string) => {
    if (!contexts.has(id)) {
      const doc = docs.get(id);
      contexts.set(id, doc ? new PaperContext(doc, retrieval?.retrieval) : null);
    }
    return contexts.get(id) ?? null;
  };
  const retriever = options.retriever ?? retrieval?.description;
  const manifest = answerManifest({
    answerer,
    ...(retriever ? { retriever } : {}),
    label: options.label,
    dataset: { sha256: datasetSha256, path: options.dataset, rows: all.length },
    papers: papersInputOfHashes(paperHashes, describeSource(options.papers)),
    version: VERSION,
  });
  return { all, rows, answerer, out: resolve(cwd, options.out), manifest, context: paperContext };
}

/** Every paper the rows name, loaded once (null: not found). */
async function loadDocuments(
  rows: readonly DatasetRow[],
  source: (id: string) => Promise<Document | null>,
): Promise<Map<string, Document | null>> {
  const docs = new Map<string, Document | null>();
  for (const id of new Set(rows.map((r) => r.paper_id))) docs.set(id, await source(id));
  return docs;
}

/** A dry run: what the rows left to answer would cost, without calling a model or writing a file. */
export function estimateAnswering(
  opened: OpenedAnswering,
  prices: PriceTable,
): Promise<AnswerEstimate & { kept: number; callsModel: boolean }> {
  return estimateRunFile({
    rows: opened.rows,
    answerer: opened.answerer,
    papers: opened.context,
    prices,
    path: opened.out,
    manifest: opened.manifest,
  });
}

/**
 * Answers the rows of an opened dataset into its run file (resuming it), then puts the file's rows
 * in the dataset's order.
 */
export async function answerOpened(
  opened: OpenedAnswering & { answerer: Answerer },
  options: HarnessOptions = {},
): Promise<HarnessResult> {
  const result = await runAnswers(
    opened.rows,
    opened.answerer,
    async (id) => opened.context(id),
    { path: opened.out, manifest: opened.manifest },
    options,
  );
  reorderRunFile(opened.out, {
    key: byField('row_id'),
    command: 'citegeist answer',
    order: opened.all.map((r) => r.row_id),
  });
  return result;
}

/**
 * Writes the official QASPER predictions (JSONL) of the rows answered without an error; returns how
 * many lines were written.
 */
export function writeQasperPredictions(
  path: string,
  opened: Pick<OpenedAnswering, 'rows' | 'context'>,
  result: Pick<HarnessResult, 'rows'>,
): number {
  const byId = new Map(opened.rows.map((r) => [r.row_id, r]));
  const prepared = new Map<string, ReturnType<typeof preparePaper>>();
  const lines: string[] = [];
  for (const run of result.rows) {
    const row = byId.get(run.row_id);
    if (!row || run.error) continue;
    const paper = opened.context(row.paper_id);
    let p = prepared.get(row.paper_id);
    if (paper && !p) {
      p = preparePaper(paper.text);
      prepared.set(row.paper_id, p);
    }
    const line = qasperPrediction(row, run, paper, p);
    if (line) lines.push(JSON.stringify(line));
  }
  writeFileAtomic(path, lines.map((l) => `${l}\n`).join(''));
  return lines.length;
}
