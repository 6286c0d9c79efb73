import {
  canonicalJson,
  createManifest,
  type DatasetRow,
  type DatasetRowRef,
  defaultLabel,
  type InputRef,
  type RunManifest,
  type RunRow,
  type RunRowRef,
  sha256Hex,
} from '../../core/index.js';
import { inspectRunFile, keepParsed, RunFile, type RunFileOptions } from '../../io/index.js';
import { estimateCost, type PriceTable } from '../../llm/index.js';
import { GradesSummary } from './aggregate.js';
import { type GradeRow, GradeRowSchema } from './grade-row.js';
import { type GradeRunOptions, type GradeRunResult, gradeRun } from './grade-run.js';
import { wholeRow, wholeRun } from './parallel-grading.js';
import { RUBRIC_PROMPT_VERSION, RUBRIC_SYSTEM_PROMPT, rubricUserPrompt } from './rubric-judge.js';

/** The grading settings that change a grades row (the bootstrap seed only changes the summary). */
export interface GradingSettings {
  match: string;
  quoteMode: string;
  /** The judge's model id, or null for the deterministic metrics only. */
  judge: string | null;
  /** The judge's unverified support counted as support (`--trust-unlocated-evidence`). */
  trustUnlocatedEvidence?: boolean;
  /** The judge's calls per row (`--repeats K`) and the temperature they are made at. */
  judgeRepeats?: { repeats: number; temperature: number };
}

/** Settings a default grades label leaves out while they have these values. */
const LABEL_DEFAULTS = {
  match: 'researchqa',
  quote_mode: 'researchqa',
  judge: null,
  trust_unlocated_evidence: false,
  partial_run: false,
  judge_repeats: 1,
};

/**
 * The manifest of a grades file. Its label is the graded run's label, plus the grading settings
 * that differ from the defaults (`gpt-4.1-mini (k=3) (judge=openai:gpt-4.1)`), so one run graded two
 * ways gives two leaderboard columns.
 */
export function gradesManifest(o: {
  runLabel: string;
  label?: string | undefined;
  settings: GradingSettings;
  dataset: InputRef;
  papers: InputRef;
  run: InputRef;
  version: string;
  /** The run was still being written when it was graded (`--allow-partial`): recorded, and in the label. */
  partialRun?: boolean;
}): RunManifest {
  const settings = {
    match: o.settings.match,
    quote_mode: o.settings.quoteMode,
    judge: o.settings.judge,
    judge_prompt: o.settings.judge ? RUBRIC_PROMPT_VERSION : null,
    // Only the judge's verdicts are grounded: without one the flag changes nothing.
    trust_unlocated_evidence: o.settings.judge !== null && o.settings.trustUnlocatedEvidence === true,
    // Only when true, so the manifests (and run ids) of complete runs stay as they were.
    ...(o.partialRun ? { partial_run: true } : {}),
    // Judged K times: how many calls per row and at which temperature (only then, as above).
    ...(o.settings.judge && (o.settings.judgeRepeats?.repeats ?? 1) > 1
      ? {
          judge_repeats: o.settings.judgeRepeats!.repeats,
          judge_temperature: o.settings.judgeRepeats!.temperature,
        }
      : {}),
  };
  return createManifest({
    kind: 'grades',
    label: o.label,
    defaultLabel: defaultLabel(o.runLabel, settings, LABEL_DEFAULTS),
    settings,
    inputs: { dataset: o.dataset, papers: o.papers, run: o.run },
    version: o.version,
  });
}

/** The hash a grades row keeps of the run row it graded. */
export function runRowHash(row: RunRow): string {
  return sha256Hex(canonicalJson(row));
}

/** The hash of a run row by id, computed only for the rows asked about. */
function runRowHashes(run: readonly (RunRow | RunRowRef)[]): (rowId: string) => string | null {
  const byId = new Map(run.map((r) => [r.row_id, r]));
  return (rowId) => {
    const row = byId.get(rowId);
    return row ? runRowHash(wholeRun(row)) : null;
  };
}

/**
 * How a grades file is opened: a row stays when it graded the run row as it is now and none of
 * its metrics failed (a failed judge call is retried; a failed answer's grade stays).
 */
export function gradesFileOptions(
  manifest: RunManifest,
  run: readonly (RunRow | RunRowRef)[],
  hashOf: (rowId: string) => string | null = runRowHashes(run),
): RunFileOptions {
  return {
    manifest,
    idField: 'row_id',
    what: 'grades file',
    command: 'citegeist grade',
    keep: keepParsed(GradeRowSchema, 'Grades row', (g) => {
      const failed = Object.values(g.status).includes('failed') && !g.answer_failed;
      return g.run_row_sha256 === hashOf(g.row_id) && !failed;
    }),
  };
}

export interface GradeToFileResult extends GradeRunResult {
  /** Rows kept from an earlier attempt (resume). */
  kept: number;
  /**
   * The summary of every row of the file (kept, then graded, in run order): built even when the
   * rows themselves are not kept (`keep: false`, then `grades` is empty).
   */
  summary: GradesSummary;
  /** Rows in the file (kept and graded). */
  rows: number;
  manifest: RunManifest;
  tookOverFrom: { pid: number; command: string; started_at: string }[];
}

/**
 * Grades a run into a grades file, appending each row as it completes (fsynced), resumable like
 * `answer`: rows graded earlier from the same answers are kept, the rest graded. The file holds
 * one grading (its manifest first), is locked meanwhile, and a file of another one is refused.
 * `grades` holds every row of the file afterwards.
 */
export async function gradeRunToFile(
  dataset: readonly (DatasetRow | DatasetRowRef)[],
  run: readonly (RunRow | RunRowRef)[],
  paperText: (paperId: string) => string | null,
  target: { path: string; manifest: RunManifest },
  options: GradeRunOptions = {},
): Promise<GradeToFileResult> {
  const hashOf = runRowHashes(run);
  const file = RunFile.open(target.path, gradesFileOptions(target.manifest, run, hashOf));
  try {
    // Kept rows go into the summary one at a time, and are held only when the caller wants them.
    const keepRows = options.keep !== false;
    const kept: GradeRow[] = [];
    const done = new Set<string>();
    const summary = new GradesSummary();
    for (const r of file.kept) {
      const g = GradeRowSchema.parse(r);
      done.add(g.row_id);
      summary.add(g);
      if (keepRows) kept.push(g);
    }
    const result = await gradeRun(
      dataset,
      run.filter((r) => !done.has(r.row_id)),
      paperText,
      {
        ...options,
        onRow: (g, n, total, index, answer) => {
          g.label = file.manifest.label;
          g.run_row_sha256 = runRowHash(answer);
          file.append(g);
          summary.put(g, done.size + index);
          options.onRow?.(g, n, total, index, answer);
        },
      },
    );
    const missing = new Set(result.missingRows);
    return {
      ...result,
      summary,
      rows: summary.size,
      grades: keepRows ? [...kept, ...result.grades] : [],
      missingRows: [...missing].filter((id) => !done.has(id)),
      kept: done.size,
      manifest: file.manifest,
      tookOverFrom: file.tookOverFrom,
    };
  } finally {
    file.close();
  }
}

/**
 * What `grade --judge --dry-run` reports: the judge calls the rows left to grade would make (rows a
 * resume of `target` keeps are left out; with no target — `leaderboard` grades in memory — none).
 */
export function estimateJudging(
  dataset: readonly (DatasetRow | DatasetRowRef)[],
  run: readonly (RunRow | RunRowRef)[],
  target: { path: string; manifest: RunManifest } | null,
  judge: string,
  prices: PriceTable,
  /** Calls per row (`--repeats K`): each row's request counted K times. */
  repeats = 1,
) {
  const kept = new Set(
    target
      ? inspectRunFile(target.path, gradesFileOptions(target.manifest, run)).kept.map((r) => String(r.row_id))
      : [],
  );
  const byId = new Map(dataset.map((r) => [r.row_id, r]));
  const todo = run.filter((r) => !kept.has(r.row_id) && byId.has(r.row_id));
  // Failed answers are not sent to the judge; the justification is short: 300 output tokens each.
  const requests = todo
    .filter((r) => r.error === null)
    .map(wholeRun)
    .flatMap((r) => Array.from({ length: Math.max(1, repeats) }, () => r))
    .map((r) => ({
      messages: [
        { role: 'system' as const, content: RUBRIC_SYSTEM_PROMPT },
        {
          role: 'user' as const,
          content: rubricUserPrompt({
            row: wholeRow(byId.get(r.row_id)!),
            answer: r.answer,
            citations: r.citations,
          }),
        },
      ],
    }));
  return {
    rows: todo.length,
    kept: kept.size,
    ...estimateCost(judge, requests, { prices, expectedOutputTokens: 300 }),
  };
}
