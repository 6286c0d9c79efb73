import pLimit from 'p-limit';
import { createManifest, type RunManifest } from '../core/index.js';
import type { LengthMode, ReportRequest } from '../formats/index.js';
import { RunFile, type RunFile as RunFileType } from '../io/index.js';
import { stringifyPythonJson } from '../python-compat/index.js';
import { type ReportWriter, reportRunLine } from './report-generator.js';

/** The length limit of a request that sets none, when the caller gives none (characters). */
export const DEFAULT_REPORT_LIMIT = 2000;

/** Passages retrieved per request when the caller gives no `k`. */
export const DEFAULT_REPORT_K = 20;

/** The settings that name a report run: a resume must use the same ones. */
export interface ReportRunSettings {
  runId: string;
  teamId: string;
  /** The writer's id (`ReportWriter.id`). */
  writer: string;
  /** The retriever's id and how many passages it gives each request. */
  retrieval: string;
  k: number;
  /** When the index the passages come from was built (a rebuilt index is another run). */
  indexCreated: string;
  defaultLimit: number;
  lengthMode: LengthMode;
  /** The requests file, as given (a resumed run may add requests to it). */
  requests: string;
  version: string;
}

/**
 * The manifest of a report run, kept beside the run (`<run>.meta.json`): a RAGTIME run file holds
 * only report lines, so the manifest cannot be its first line.
 */
export function reportRunManifest(s: ReportRunSettings): RunManifest {
  return createManifest({
    kind: 'report-run',
    label: s.runId,
    defaultLabel: s.runId,
    settings: {
      run_id: s.runId,
      team_id: s.teamId,
      model: s.writer,
      retrieval: s.retrieval,
      k: s.k,
      index_created: s.indexCreated,
      default_limit: s.defaultLimit,
      length_mode: s.lengthMode,
      requests: s.requests,
    },
    inputs: {},
    version: s.version,
  });
}

/** The topic of a report-run line of run `runId` (lines of another run name none). */
export function reportTopicOf(runId: string): (line: Record<string, unknown>) => string | undefined {
  return (line) => {
    const meta = line.metadata as { run_id?: unknown; topic_id?: unknown } | undefined;
    return meta?.run_id === runId && meta.topic_id !== undefined ? String(meta.topic_id) : undefined;
  };
}

/** Where a report run goes and how it is opened (`<path>.meta.json` holds its manifest). */
export function openReportRun(path: string, manifest: RunManifest, command: string): RunFileType {
  const runId = String(manifest.settings.run_id);
  return RunFile.open(path, {
    manifest,
    idField: 'metadata.topic_id',
    rowId: reportTopicOf(runId),
    what: 'report run',
    command,
    manifestPath: `${path}.meta.json`,
    // As Python's json.dumps writes them: the TREC RAG tools read these files.
    format: (row) => stringifyPythonJson(row, { ensureAscii: false }),
  });
}

export interface WriteReportRunOptions {
  /** The open run file (`openReportRun`): reports already in it are not written again. */
  file: RunFileType;
  requests: readonly ReportRequest[];
  writer: ReportWriter;
  teamId: string;
  /** The length limit of requests that set none (default `DEFAULT_REPORT_LIMIT`). */
  defaultLimit?: number;
  lengthMode: LengthMode;
  /** Reports written at once (default 1). */
  concurrency?: number;
  /** Called after each report, written or failed. */
  onReport?: (request: ReportRequest, outcome: { ok: true } | { ok: false; reason: string }) => void;
}

export interface ReportRunResult {
  written: number;
  failed: number;
  /** Requests whose report was already in the file (resume). */
  resumed: number;
}

/** The requests whose report is not yet in the run file, in their order. */
export function pendingRequests(file: RunFileType, requests: readonly ReportRequest[]): ReportRequest[] {
  const topic = reportTopicOf(String(file.manifest.settings.run_id));
  const done = new Set(file.kept.map((line) => topic(line)));
  return requests.filter((r) => !done.has(r.id));
}

/**
 * Writes one report per request not yet in the run file, as RAGTIME run lines appended under the
 * file's lock. A request whose report fails is counted and left out; a rerun retries it.
 */
export async function writeReportRun(o: WriteReportRunOptions): Promise<ReportRunResult> {
  const runId = String(o.file.manifest.settings.run_id);
  const todo = pendingRequests(o.file, o.requests);
  const limit = pLimit(Math.max(1, o.concurrency ?? 1));
  let failed = 0;
  await Promise.all(
    todo.map((request) =>
      limit(async () => {
        const draft = await o.writer.write({
          request,
          limit: request.limit ?? o.defaultLimit ?? DEFAULT_REPORT_LIMIT,
          lengthMode: o.lengthMode,
        });
        if (!draft.ok) {
          failed++;
          o.onReport?.(request, draft);
          return;
        }
        o.file.append(reportRunLine(draft.sentences, { teamId: o.teamId, runId, topicId: request.id }));
        o.onReport?.(request, { ok: true });
      }),
    ),
  );
  return { written: todo.length - failed, failed, resumed: o.requests.length - todo.length };
}
