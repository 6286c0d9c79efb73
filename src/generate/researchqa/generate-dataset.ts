import { existsSync, statSync } from 'node:fs';
import pLimit from 'p-limit';
import {
  CitegeistError,
  createManifest,
  defaultLabel,
  type RunManifest,
  sha256Hex,
} from '../../core/index.js';
import { byField, inspectRunFile, RunFile, type RunFileOptions, reorderRunFile } from '../../io/index.js';
import type { LlmProvider } from '../../llm/index.js';
import {
  type DropReason,
  generatePaperQuestions,
  maxPaperChars,
  type PaperGeneration,
} from './generate-questions.js';
import { GENERATION_PROMPT } from './generation-schema.js';

export interface GenerateDatasetOptions {
  /** The run's manifest (`questionsManifest`): written first in the progress file, checked on resume. */
  manifest: RunManifest;
  /** Papers answered at once (default 2). */
  concurrency?: number;
  onPaper?: (result: PaperGeneration, done: number, total: number) => void;
  signal?: AbortSignal;
  maxPaperChars?: number;
}

export interface GenerateDatasetResult {
  papers: number;
  /** Papers skipped because an earlier run finished them. */
  keptPapers: number;
  rows: number;
  repaired: number;
  dropped: Partial<Record<DropReason, number>>;
  failedPapers: { paperId: string; error: string }[];
  /** Papers an earlier run finished whose text has changed since: redone, their old rows removed. */
  changedPapers: string[];
  costUsd: number;
}

/** The progress file beside a generated dataset: one line per finished paper. */
export function progressPath(out: string): string {
  return `${out}.papers.jsonl`;
}

/**
 * The manifest of a question generation: the model, the prompt (hashed), temperature and the paper
 * characters sent, and the domain given to papers without one. The papers are units of work, like
 * rows: each progress line records the hash of the text its questions were made from.
 */
export function questionsManifest(o: {
  llm: Pick<LlmProvider, 'id' | 'contextWindow'>;
  domain: string;
  maxPaperChars?: number;
  label?: string | undefined;
  version: string;
}): RunManifest {
  const settings = {
    model: o.llm.id,
    prompt: sha256Hex(GENERATION_PROMPT).slice(0, 12),
    temperature: 0.2,
    max_paper_chars: maxPaperChars(
      o.llm,
      o.maxPaperChars === undefined ? {} : { maxPaperChars: o.maxPaperChars },
    ),
    domain: o.domain,
  };
  return createManifest({
    kind: 'questions',
    label: o.label,
    defaultLabel: defaultLabel(o.llm.id, settings, { domain: '' }),
    settings,
    inputs: {},
    version: o.version,
  });
}

/**
 * How the progress file is opened: finished papers stay; failed ones, and those in `changed` (their
 * text is no longer the text their questions were made from), are redone.
 */
export function progressFileOptions(
  manifest: RunManifest,
  changed: ReadonlySet<string> = new Set(),
): RunFileOptions {
  return {
    manifest,
    idField: 'paper_id',
    what: 'generation progress file',
    command: 'citegeist generate questions',
    keep: (row) => row.error === null && !changed.has(String(row.paper_id)),
  };
}

/**
 * The papers an earlier run of `manifest` finished whose text differs now from the text recorded
 * in their progress line (`text_sha256`), so that a resume never keeps questions about a paper
 * that has since changed. Reads nothing but the progress file when there is none to resume.
 */
export async function changedPapers(
  out: string,
  manifest: RunManifest,
  papers: readonly { id: string }[],
  loadText: (paperId: string) => Promise<string | null>,
): Promise<Set<string>> {
  const changed = new Set<string>();
  if (!existsSync(progressPath(out))) return changed;
  const wanted = new Set(papers.map((p) => p.id));
  for (const row of inspectRunFile(progressPath(out), progressFileOptions(manifest)).kept) {
    const id = String(row.paper_id);
    if (!wanted.has(id) || !('text_sha256' in row)) continue;
    const text = await loadText(id);
    if ((text === null ? null : sha256Hex(text)) !== row.text_sha256) changed.add(id);
  }
  return changed;
}

/**
 * Generates rows for every paper into `out` (JSONL), resumable per paper: a paper is finished when
 * its line is in the progress file (written after its rows, which start with the run's manifest);
 * finished papers are skipped, failed ones are retried on the next run. The progress file's lock
 * guards both files; a dataset file that this run did not start is refused, never rewritten. Rows
 * of papers that were not finished (a killed run) are removed from `out` before resuming, so no row
 * is ever duplicated.
 */
export async function generateDataset(
  llm: LlmProvider,
  papers: readonly { id: string; domain: string }[],
  loadText: (paperId: string) => Promise<string | null>,
  out: string,
  options: GenerateDatasetOptions,
): Promise<GenerateDatasetResult> {
  const changed = await changedPapers(out, options.manifest, papers, loadText);
  const progressFile = openProgress(out, options.manifest, changed);
  let result: GenerateDatasetResult;
  try {
    result = await generateInto(llm, papers, loadText, out, progressFile, options, changed);
  } finally {
    progressFile.close();
  }
  // Rows were appended as papers finished: put both files in paper order (the same bytes however it ran).
  reorderRunFile(progressPath(out), {
    key: byField('paper_id'),
    command: progressFileOptions(options.manifest).command,
    order: papers.map((p) => p.id),
    companions: [{ path: out, key: byField('paper_id') }],
  });
  return result;
}

function openProgress(out: string, manifest: RunManifest, changed: ReadonlySet<string>): RunFile {
  const hadProgress = existsSync(progressPath(out));
  const file = RunFile.open(progressPath(out), progressFileOptions(manifest, changed));
  if (!hadProgress && existsSync(out) && statSync(out).isFile() && statSync(out).size > 0) {
    file.close();
    throw new CitegeistError(
      'RUN_FILE_FOREIGN',
      `${out} already holds rows, and no generation progress file (${progressPath(out)}) says which run wrote them.`,
      'Write to a new file (another --out), or move this one away.',
    );
  }
  return file;
}

async function generateInto(
  llm: LlmProvider,
  papers: readonly { id: string; domain: string }[],
  loadText: (paperId: string) => Promise<string | null>,
  out: string,
  progress: RunFile,
  options: GenerateDatasetOptions,
  changed: ReadonlySet<string>,
): Promise<GenerateDatasetResult> {
  const finished = new Set(progress.kept.map((r) => String(r.paper_id)));
  // Rows of papers not finished (a killed run) go before resuming, so no row is ever duplicated.
  const rowsOut = progress.companion(out, (row) => finished.has(String(row.paper_id ?? '')));
  const todo = papers.filter((p) => !finished.has(p.id));
  const result: GenerateDatasetResult = {
    papers: todo.length,
    keptPapers: papers.length - todo.length,
    rows: 0,
    repaired: 0,
    dropped: {},
    failedPapers: [],
    changedPapers: papers.filter((p) => changed.has(p.id)).map((p) => p.id),
    costUsd: 0,
  };
  let done = 0;
  const generateOne = async (paper: (typeof todo)[number]) => {
    options.signal?.throwIfAborted();
    const text = await loadText(paper.id);
    const gen = await generatePaperQuestions(llm, paper.id, text, {
      domain: paper.domain,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxPaperChars ? { maxPaperChars: options.maxPaperChars } : {}),
    });
    rowsOut.appendAll(gen.rows);
    progress.append({
      paper_id: paper.id,
      text_sha256: text === null ? null : sha256Hex(text),
      rows: gen.rows.length,
      repaired: gen.repaired,
      dropped: gen.dropped,
      error: gen.error,
    });
    result.rows += gen.rows.length;
    result.repaired += gen.repaired;
    result.costUsd += gen.costUsd ?? 0;
    for (const [reason, n] of Object.entries(gen.dropped) as [DropReason, number][]) {
      result.dropped[reason] = (result.dropped[reason] ?? 0) + n;
    }
    if (gen.error) result.failedPapers.push({ paperId: paper.id, error: gen.error });
    options.onPaper?.(gen, ++done, todo.length);
  };
  try {
    // Started in paper order, at most `concurrency` at once; rows are appended as papers finish.
    await pLimit(Math.max(1, Math.floor(Math.min(options.concurrency ?? 2, todo.length || 1)))).map(
      todo,
      generateOne,
    );
  } finally {
    rowsOut.close();
  }
  return result;
}
