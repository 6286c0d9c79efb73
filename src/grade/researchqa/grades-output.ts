import { resolve } from 'node:path';
import { papersInputOfHashes, type RunManifest, sha256Hex } from '../../core/index.js';
import { byField, reorderRunFile, sha256OfFile, writeFileAtomic } from '../../io/index.js';
import type { EvidenceTally } from '../evidence-grounding.js';
import { GradesSummary, type ModelSummary, type Spread, spreads } from './aggregate.js';
import type { GradeRow } from './grade-row.js';
import type { GradeToFileResult } from './grades-file.js';
import { gradesManifest } from './grades-file.js';
import type { OpenedGrading } from './open-grading.js';

/** The leaderboard figures of grades rows: per model, the spreads between models, the judge's evidence. */
export interface GradesSummaryFigures {
  models: ModelSummary[];
  spreads: Spread[];
  /** The rubric judge's claims of support that could not be shown, per judge model (only when any). */
  judge_evidence?: EvidenceTally[];
}

/**
 * The figures of grades rows, or of their summary built as they were graded, with the bootstrap
 * seed of the intervals; `trusted` says the judge's unverified support was counted as support.
 */
export function summarizeGrades(
  grades: readonly GradeRow[] | GradesSummary,
  seed: number,
): { figures: GradesSummaryFigures; evidence: EvidenceTally[]; trusted: boolean } {
  const summary = grades instanceof GradesSummary ? grades : GradesSummary.of(grades);
  const models = summary.build({ seed });
  const { tallies: evidence, trusted } = summary.evidence();
  const figures: GradesSummaryFigures = {
    models,
    spreads: spreads(models),
    ...(evidence.length > 0 ? { judge_evidence: evidence } : {}),
  };
  return { figures, evidence, trusted };
}

/** Where one run's grades go: the grades file and its manifest (see `gradesTarget`). */
export interface GradesTarget {
  path: string;
  manifest: RunManifest;
}

/**
 * The grades file of the one run of an opened grading, and its manifest: the run's label plus the
 * settings that differ from the defaults, the dataset, papers and run it was graded from.
 */
export function gradesTarget(
  opened: OpenedGrading,
  o: {
    /** The grades file (absolute, or relative to `cwd`). */
    out: string;
    /** The dataset and run files as given (they name the inputs in the manifest). */
    dataset: string;
    run: string;
    /** Resolves `out` and `run` (default: the process's working folder). */
    cwd?: string;
    label?: string | undefined;
    /** The judge's model id, or null for the deterministic metrics only. */
    judge: string | null;
    trustUnlocatedEvidence: boolean;
    /** How the manifest names the paper source (`describeSource`). */
    papers: string;
    version: string;
  },
): GradesTarget {
  const cwd = o.cwd ?? process.cwd();
  const run = opened.runs[0]!;
  const manifest = gradesManifest({
    runLabel: run.manifest?.label ?? run.models.join(', '),
    label: o.label,
    settings: {
      match: opened.grading.match ?? 'researchqa',
      quoteMode: opened.quoteMode,
      judge: o.judge,
      trustUnlocatedEvidence: o.trustUnlocatedEvidence,
    },
    dataset: { sha256: opened.datasetSha256, path: o.dataset, rows: opened.dataset.length },
    papers: papersInputOfHashes(opened.paperHashes, o.papers),
    run: runInput(run.manifest, resolve(cwd, o.run), o.run),
    version: o.version,
    partialRun: opened.partial.length > 0,
  });
  return { path: resolve(cwd, o.out), manifest };
}

/** The `run` input of a grades manifest: the run's identity, or the file's bytes when it has no manifest. */
function runInput(manifest: RunManifest | null, path: string, given: string) {
  return manifest
    ? { sha256: sha256Hex(manifest.run_id), path: given, label: manifest.label, run_id: manifest.run_id }
    : { sha256: sha256OfFile(path, 'run file').sha256, path: given };
}

/**
 * Finishes a grades file written by `gradeRunToFile`: puts its rows in the run's order and writes
 * the summary JSON beside it (`<grades>.summary.json`: provenance, the figures, and per field the
 * rows scored without it). Returns the summary file and those counts.
 */
export function finishGradesFile(
  opened: OpenedGrading,
  target: GradesTarget,
  result: GradeToFileResult,
  figures: GradesSummaryFigures,
  seed: number,
  /** More of the summary, after the rest (e.g. the judge's card). */
  extra: Record<string, unknown> = {},
): { summaryFile: string; missingFields: Record<string, number> } {
  const run = opened.runs[0]!;
  reorderRunFile(target.path, {
    key: byField('row_id'),
    command: 'citegeist grade',
    order: run.rows.map((r) => r.row_id),
  });
  const summaryFile = `${target.path.replace(/\.jsonl?$/i, '')}.summary.json`;
  const provenance = {
    manifest: result.manifest,
    bootstrap_seed: seed,
    // A run graded while it was being written: its figures cover only the rows it then held.
    ...(opened.partial.length > 0
      ? { partial: { run_rows_graded: run.rows.length, writers: opened.partial } }
      : {}),
  };
  // Rows scored without a field that changes their scores (as an empty list): field → count.
  const missingFields = Object.fromEntries(
    Object.entries(opened.missingFields).map(([field, ids]) => [field, ids.length]),
  );
  writeFileAtomic(
    summaryFile,
    `${JSON.stringify({ ...provenance, ...figures, missing_fields: missingFields, ...extra }, null, 2)}\n`,
  );
  return { summaryFile, missingFields };
}
