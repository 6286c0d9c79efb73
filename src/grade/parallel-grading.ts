/**
 * Deterministic grading of a whole run on several threads. Rows are grouped by paper and the groups
 * handed to worker threads largest first, each to the next idle worker, so every paper is prepared
 * once, by one thread, and released as soon as its rows are scored. The metrics are pure functions of
 * (row, answer, paper text), so the grades equal `DeterministicGrader`'s whatever the thread count.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DatasetRow, RunRow } from '../core/index.js';
import type { MatchMode } from '../text/index.js';
import type { CitationScores } from './citation-metrics.js';
import {
  type AlternativeMatchMode,
  alternativeMatcher,
  type DeterministicOptions,
  gradeRowOf,
} from './deterministic-grader.js';
import type { GradeRow } from './grade-row.js';
import { allFailed, type ScoringRow, scorePaperRows } from './score-paper-rows.js';

/** One answer to grade against its dataset row. */
export interface GradingJob {
  row: DatasetRow;
  run: RunRow;
}

export interface DeterministicGradingOptions extends DeterministicOptions {
  /**
   * Threads to grade on (default: the machine's available parallelism, at most 8; 1 grades in this
   * thread). Each thread gets at least 500 rows, so small runs grade in this thread.
   */
  workers?: number;
  /** Called as each row's grade is ready (in completion order, with the row's input index). */
  onRow?: (grade: GradeRow, index: number) => void;
}

/** Settings a worker starts with. */
export interface WorkerSettings {
  match: AlternativeMatchMode;
  quoteMode: MatchMode;
}

/** One paper's rows, sent to a worker. */
export interface WorkerRequest {
  group: number;
  text: string | null;
  rows: ScoringRow[];
}

export type WorkerResponse = { group: number; scores: CitationScores[] } | { group: number; error: string };

/** A worker's first message, once it has loaded. */
export const WORKER_READY = 'ready';

const MIN_ROWS_PER_THREAD = 500;
const MAX_DEFAULT_THREADS = 8;

/**
 * Grades every job deterministically (METHODS §2.4) and returns the grades in input order.
 * `paperText(id)` gives a paper's text (null when unavailable: its paper-dependent metrics fail);
 * it is called once per paper.
 */
export async function gradeDeterministic(
  jobs: readonly GradingJob[],
  paperText: (paperId: string) => string | null,
  options: DeterministicGradingOptions = {},
): Promise<GradeRow[]> {
  const settings: WorkerSettings = {
    match: options.match ?? 'researchqa',
    quoteMode: options.quoteMode ?? 'researchqa',
  };
  const groups = groupByPaper(jobs);
  const grades: GradeRow[] = new Array(jobs.length);
  const finish = (group: PaperGroup, scores: readonly CitationScores[]) => {
    for (const [k, i] of group.indices.entries()) {
      const job = jobs[i]!;
      grades[i] = gradeRowOf(job.row, job.run, scores[k]!);
      options.onRow?.(grades[i], i);
    }
  };
  const requested = options.workers ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS);
  const threads = Math.min(requested, Math.floor(jobs.length / MIN_ROWS_PER_THREAD));
  if (threads <= 1) {
    const match = alternativeMatcher(settings.match);
    for (const group of groups) {
      finish(
        group,
        scorePaperRows(paperText(group.paperId), scoringRows(jobs, group), match, settings.quoteMode),
      );
    }
    return grades;
  }
  await runOnWorkers(
    groups.length,
    threads,
    settings,
    (g) => ({ group: g, text: paperText(groups[g]!.paperId), rows: scoringRows(jobs, groups[g]!) }),
    (response) => {
      const group = groups[response.group]!;
      if ('scores' in response) finish(group, response.scores);
      else
        finish(
          group,
          group.indices.map(() => allFailed(`grading failed: ${response.error}`)),
        );
    },
  );
  return grades;
}

interface PaperGroup {
  paperId: string;
  /** Input indices of the paper's jobs. */
  indices: number[];
}

/** Jobs grouped by paper, the largest group first (so the last groups to finish are small). */
function groupByPaper(jobs: readonly GradingJob[]): PaperGroup[] {
  const byPaper = new Map<string, number[]>();
  for (const [i, job] of jobs.entries()) {
    const list = byPaper.get(job.row.paper_id);
    if (list) list.push(i);
    else byPaper.set(job.row.paper_id, [i]);
  }
  return [...byPaper]
    .map(([paperId, indices]) => ({ paperId, indices }))
    .sort((a, b) => b.indices.length - a.indices.length);
}

/** Only what the metrics read, so little is copied to a worker. */
function scoringRows(jobs: readonly GradingJob[], group: PaperGroup): ScoringRow[] {
  return group.indices.map((i) => {
    const { row, run } = jobs[i]!;
    return {
      row: {
        question_type: row.question_type,
        expected_refusal: row.expected_refusal,
        expected_references: row.expected_references,
      },
      answer: { citations: run.citations, contract: run.contract, error: run.error },
    };
  });
}

/**
 * Sends `count` requests to `threads` workers and passes every response to `onResponse`. Each worker
 * holds two requests, so it starts the next as soon as it finishes one instead of waiting for this
 * thread to prepare and copy it. A worker that dies while working fails the request it was on (with
 * the reason), its queued request goes to another worker and it is replaced, so one bad paper never
 * stops the run; a worker that cannot start stops it (every replacement would fail the same way).
 */
function runOnWorkers(
  count: number,
  threads: number,
  settings: WorkerSettings,
  request: (index: number) => WorkerRequest,
  onResponse: (response: WorkerResponse) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const unsent: number[] = [];
    for (let g = count - 1; g >= 0; g--) unsent.push(g); // popped in order 0, 1, 2, ...
    let answered = 0;
    let settled = false;
    const pool = new Set<Worker>();
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      for (const w of pool) void w.terminate();
      pool.clear();
      if (error === undefined) resolve();
      else reject(error);
    };
    /** Records a response; false once the run is over. */
    const record = (response: WorkerResponse): boolean => {
      try {
        onResponse(response);
      } catch (error) {
        settle(error);
        return false;
      }
      if (++answered === count) settle();
      return !settled;
    };
    const start = () => {
      const worker = startWorker(settings);
      pool.add(worker);
      let ready = false;
      const inFlight: number[] = []; // answered in the order sent
      const fill = () => {
        while (!settled && inFlight.length < 2 && unsent.length > 0) {
          const g = unsent.pop()!;
          inFlight.push(g);
          try {
            worker.postMessage(request(g));
          } catch (error) {
            settle(error);
          }
        }
      };
      worker.on('message', (message: WorkerResponse | typeof WORKER_READY) => {
        if (message === WORKER_READY) ready = true;
        else {
          inFlight.shift();
          if (!record(message)) return;
        }
        fill();
      });
      worker.on('error', (error) => {
        pool.delete(worker);
        void worker.terminate();
        if (settled) return;
        if (!ready) {
          settle(new Error(`a grading worker could not start: ${error.message}`));
          return;
        }
        const [failing, ...queued] = inFlight;
        unsent.push(...queued.reverse());
        if (
          failing !== undefined &&
          !record({ group: failing, error: `the grading worker stopped: ${error.message}` })
        ) {
          return;
        }
        if (unsent.length > 0) start();
      });
    };
    for (let t = 0; t < Math.min(threads, count); t++) start();
  });
}

/** A grading worker; from the TypeScript sources (tests, benchmarks) it starts through tsx. */
function startWorker(settings: WorkerSettings): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './grading-worker.dev.mjs' : './grading-worker.js', import.meta.url);
  return new Worker(entry, { workerData: settings });
}
