import { createManifest, type RunManifest } from '../../core/index.js';
import type { LengthMode } from '../../formats/index.js';
import { inspectRunFile, RunFile, type RunFileOptions, reorderRunFile } from '../../io/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { type EvidenceTally, mergeTallies } from '../evidence-grounding.js';
import { judgeReports, reportKey } from './judge-batch.js';
import type { JudgeReportContext, JudgeReportInput } from './judge-report.js';
import type { JudgedReport, JudgeRecord } from './judgments.js';

/**
 * An ARGUE judgments file (ARGUE-viz's format: one judged report per line, nothing else) as a
 * resumable run file: its manifest is kept beside it in `<out>.meta.json`, a report is judged when
 * its line is there without failed judgments, and a rerun judges the others (docs/reports.md).
 */

/** The settings that name a judging: a resume must use the same ones. */
export interface JudgmentsSettings {
  /** The judge's id (`ReportJudge.id`). */
  judge: string;
  /** The nugget banks, requests and cited documents as given (a resume may add runs or documents). */
  nuggets: string;
  requests: string;
  docs: string;
  /** One length limit for every report, or null for each request's own. */
  limit: number | null;
  lengthMode: LengthMode;
  /** Characters of a cited document in a judge prompt (null: the lexical judge reads them whole). */
  maxDocChars: number | null;
  /** Unverified support counts differently with it: scores with and without it differ. */
  trustUnlocatedEvidence: boolean;
  /** Judged K > 1 times (`--repeats K`): K and the judge's temperature (absent, or K = 1: judged once). */
  judgeRepeats?: { repeats: number; temperature: number };
  version: string;
}

/** The evidence tallies a judged report line records (absent in lines written before grounding). */
export type JudgedEvidence = NonNullable<JudgeRecord['evidence']>;

export function reportJudgmentsManifest(s: JudgmentsSettings): RunManifest {
  return createManifest({
    kind: 'report-judgments',
    label: `argue judge ${s.judge}`,
    defaultLabel: `argue judge ${s.judge}`,
    settings: {
      method: 'argue-judge',
      judge: s.judge,
      nuggets: s.nuggets,
      requests: s.requests,
      docs: s.docs,
      limit: s.limit ?? 'per request',
      length_mode: s.lengthMode,
      max_doc_chars: s.maxDocChars,
      trust_unlocated_evidence: s.trustUnlocatedEvidence,
      // Only when judged K > 1 times, so manifests of single judgings stay as they were; a resume
      // with another K is then refused (RUN_MANIFEST_MISMATCH names judge_repeats).
      ...((s.judgeRepeats?.repeats ?? 1) > 1
        ? { judge_repeats: s.judgeRepeats!.repeats, judge_temperature: s.judgeRepeats!.temperature }
        : {}),
    },
    inputs: {},
    version: s.version,
  });
}

/** The key of a judgments line (`reportKey` of its report's run and topic), or undefined. */
export function judgedReportKey(line: Record<string, unknown>): string | undefined {
  const meta = (line.report as { metadata?: { run_id?: unknown; topic_id?: unknown } } | undefined)?.metadata;
  return typeof meta?.run_id === 'string' && meta.topic_id !== undefined
    ? reportKey(meta.run_id, String(meta.topic_id))
    : undefined;
}

/**
 * How a judgments file is opened. `facts` (the input hashes, where the documents were found) are
 * written beside the manifest at every open and not compared: a resumed run may add runs, or
 * documents to retry citations that were not found. The flat settings are repeated among them for
 * the readers of `.meta.json` files (`citegeist pack`).
 */
export function reportJudgmentsFileOptions(
  manifest: RunManifest,
  path: string,
  facts?: Record<string, unknown>,
): RunFileOptions {
  return {
    manifest,
    idField: 'report.metadata (run_id, topic_id)',
    rowId: judgedReportKey,
    // A report with failed judgments is judged again; its old line goes.
    keep: (row) => ((row.citegeist as { failed?: number } | undefined)?.failed ?? 0) === 0,
    what: 'judgments file',
    command: 'citegeist reports judge',
    manifestPath: `${path}.meta.json`,
    ...(facts ? { besideFacts: { ...manifest.settings, ...facts } } : {}),
    // As Python's json.dumps writes them: ARGUE-viz and Auto-ARGUE read these files.
    format: (row) => stringifyPythonJson(row, { ensureAscii: false }),
  };
}

/** Opens (takes the lock of, checks, repairs) a judgments file for appending. */
export function openJudgments(path: string, manifest: RunManifest, facts?: Record<string, unknown>): RunFile {
  return RunFile.open(path, reportJudgmentsFileOptions(manifest, path, facts));
}

/** The reports a judgments file holds without failures, by key, with their evidence tallies. */
export function judgedReports(
  kept: readonly Record<string, unknown>[],
): Map<string, JudgedEvidence | undefined> {
  const done = new Map<string, JudgedEvidence | undefined>();
  for (const row of kept) {
    const key = judgedReportKey(row);
    if (key) done.set(key, (row.citegeist as { evidence?: JudgedEvidence } | undefined)?.evidence);
  }
  return done;
}

/** What a resume of `path` would keep, without changing the file or taking its lock (`--dry-run`). */
export function judgedReportsIn(
  path: string,
  manifest: RunManifest,
): Map<string, JudgedEvidence | undefined> {
  return judgedReports(inspectRunFile(path, reportJudgmentsFileOptions(manifest, path)).kept);
}

/** The inputs whose report is not yet judged, in their order. */
export function pendingJudgments(
  inputs: readonly JudgeReportInput[],
  done: ReadonlyMap<string, unknown>,
): JudgeReportInput[] {
  return inputs.filter((i) => !done.has(reportKey(i.report.runId, i.report.topicId)));
}

export interface JudgeIntoFileResult {
  /** Reports judged now, resumed from the file, and those of them with failed judgments. */
  judged: number;
  resumed: number;
  reportsWithFailures: number;
  failedJudgments: number;
  truncatedSentences: number;
  /** Per judge model: the claims of support of every report of `inputs` in the file now. */
  evidence: { attestations: EvidenceTally[]; nugget_matches: EvidenceTally[] };
}

/**
 * Judges the reports of `inputs` not yet in the open judgments file, appending each line as it
 * completes (under the file's lock), then puts the lines in the order of `inputs`, so that one
 * judging gives the same bytes however many reports ran at once or how often it was resumed.
 * Closes the file.
 */
export async function judgeIntoFile(
  file: RunFile,
  inputs: readonly JudgeReportInput[],
  ctx: JudgeReportContext,
  options: { concurrency: number; onReport?: (judged: JudgedReport, input: JudgeReportInput) => void },
): Promise<JudgeIntoFileResult> {
  const done = judgedReports(file.kept);
  const todo = pendingJudgments(inputs, done);
  const result = { judged: todo.length, resumed: inputs.length - todo.length };
  const tally = { reports: 0, judgments: 0, truncated: 0, evidence: [] as (JudgedEvidence | undefined)[] };
  try {
    await judgeReports(todo, ctx, {
      concurrency: options.concurrency,
      onReport: (judged, input) => {
        file.append(judged);
        const failed = judged.citegeist?.failed ?? 0;
        tally.judgments += failed;
        tally.truncated += judged.citegeist?.truncated_sentences ?? 0;
        tally.evidence.push(judged.citegeist?.evidence);
        if (failed > 0) tally.reports++;
        options.onReport?.(judged, input);
      },
    });
  } finally {
    file.close();
  }
  const order = inputs.map((i) => reportKey(i.report.runId, i.report.topicId));
  reorderRunFile(file.path, { command: 'citegeist reports judge', key: judgedReportKey, order });
  const kept = order.filter((k) => done.has(k)).map((k) => done.get(k));
  return {
    ...result,
    reportsWithFailures: tally.reports,
    failedJudgments: tally.judgments,
    truncatedSentences: tally.truncated,
    evidence: sumEvidence([...kept, ...tally.evidence]),
  };
}

/** Per judge model: the claims of support of these reports, located and unverified. */
function sumEvidence(list: Iterable<JudgedEvidence | undefined>): JudgeIntoFileResult['evidence'] {
  const all = [...list].filter((e): e is JudgedEvidence => e !== undefined);
  return {
    attestations: mergeTallies(all.map((e) => e.attestations ?? [])),
    nugget_matches: mergeTallies(all.map((e) => e.nugget_matches ?? [])),
  };
}
