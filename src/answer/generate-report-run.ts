import { reorderRunFile } from '../io/index.js';
import {
  openReportRun,
  pendingRequests,
  type ReportRunResult,
  type ReportRunSettings,
  reportRunManifest,
  reportTopicOf,
  type WriteReportRunOptions,
  writeReportRun,
} from './report-run.js';

/**
 * A whole report run into one file (`reports generate`): its manifest, the run file opened with
 * its lock (a resume skips the reports already in it), each pending request written, and the
 * file's reports put in the requests' order. `onStart` hears how many reports are left to write.
 */
export async function generateReportRun(o: {
  /** The run file (JSONL), created or resumed. */
  path: string;
  /** What the manifest records (`reportRunManifest`). */
  settings: ReportRunSettings;
  /** How the reports are written (`writeReportRun`; team, limit and length mode are the settings'). */
  write: Omit<WriteReportRunOptions, 'file' | 'teamId' | 'defaultLimit' | 'lengthMode'>;
  onStart?: (pending: number) => void;
}): Promise<ReportRunResult> {
  const file = openReportRun(o.path, reportRunManifest(o.settings), 'citegeist reports generate');
  let result: ReportRunResult;
  try {
    o.onStart?.(pendingRequests(file, o.write.requests).length);
    const { teamId, defaultLimit, lengthMode } = o.settings;
    result = await writeReportRun({ ...o.write, file, teamId, defaultLimit, lengthMode });
  } finally {
    file.close();
  }
  reorderRunFile(o.path, {
    command: 'citegeist reports generate',
    key: reportTopicOf(o.settings.runId),
    order: o.write.requests.map((r) => r.id),
  });
  return result;
}
