/**
 * Deterministic grading of a whole run on several threads. Rows are grouped by paper and the groups
 * handed out largest first, each to the next free thread (this one included), so every paper is
 * prepared once, by one thread, and released as soon as its rows are scored. The metrics are pure
 * functions of (row, answer, paper text), so the grades equal `DeterministicGrader`'s whatever the
 * thread count.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DatasetRow, RunRow } from '../core/index.js';
import type { MatchMode } from '../text/index.js';
import type { CitationScores } from './citation-metrics.js';
import { allFailed } from './citation-metrics.js';
import {
  type AlternativeMatchMode,
  alternativeMatcher,
  type DeterministicOptions,
  gradeRowOf,
  scoreOptions,
} from './deterministic-grader.js';
import type { GradeRow } from './grade-row.js';
import { type ScoringRow, scorePaperRows } from './score-paper-rows.js';

/** One answer to grade against its dataset row. */
export interface GradingJob {
  row: DatasetRow;
  run: RunRow;
}

export interface DeterministicGradingOptions extends DeterministicOptions {
  /**
   * Threads to grade on, this one included (default: the machine's available parallelism; 1 grades
   * in this thread only). Each thread gets at least 500 rows, so small runs grade here.
   */
  threads?: number;
  /**
   * Grade on this thread too (default true). false leaves this thread free (a server's event loop,
   * say): every row is then graded on worker threads, however few.
   */
  useThisThread?: boolean;
  /** Called as each row's grade is ready (in completion order, with the row's input index). */
  onRow?: (grade: GradeRow, index: number) => void;
  /** Told when a worker thread fails (its paper's rows are failed, or its work is done elsewhere). */
  onWorkerFailure?: (message: string) => void;
  /** Told which thread graded each paper's rows (0: this thread; else the worker's thread id). */
  onPaper?: (paperId: string, thread: number) => void;
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

export type WorkerResponse =
  | { group: number; thread?: number; scores: CitationScores[] }
  | { group: number; error: string };

/** A worker's first message, once it has loaded. */
export const WORKER_READY = 'ready';

const MIN_ROWS_PER_THREAD = 500;

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
  const match = alternativeMatcher(settings.match);
  const groups = groupByPaper(jobs);
  const grades: GradeRow[] = new Array(jobs.length);
  const requested = options.threads ?? availableParallelism();
  const threads = Math.max(1, Math.min(requested, Math.floor(jobs.length / MIN_ROWS_PER_THREAD)));
  const here = options.useThisThread ?? true;
  await runPool(groups.length, here ? threads - 1 : threads, () => startWorker(settings), {
    request: (g) => ({ group: g, text: paperText(groups[g]!.paperId), rows: scoringRows(jobs, groups[g]!) }),
    local: here
      ? (g) => ({
          group: g,
          scores: scorePaperRows(
            paperText(groups[g]!.paperId),
            scoringRows(jobs, groups[g]!),
            match,
            settings.quoteMode,
            scoreOptions(settings.match),
          ),
        })
      : undefined,
    onResponse: (response) => {
      const group = groups[response.group]!;
      if ('scores' in response) options.onPaper?.(group.paperId, response.thread ?? 0);
      for (const [k, i] of group.indices.entries()) {
        const job = jobs[i]!;
        const scores =
          'scores' in response ? response.scores[k]! : allFailed(`grading failed: ${response.error}`);
        grades[i] = gradeRowOf(job.row, job.run, scores);
        options.onRow?.(grades[i], i);
      }
    },
    onWorkerFailure: options.onWorkerFailure,
  });
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
        ...(row.evidence_layout ? { evidence_layout: row.evidence_layout } : {}),
      },
      answer: { citations: run.citations, contract: run.contract, error: run.error },
    };
  });
}

export interface PoolTasks {
  /** The message for a worker to do task `index`. */
  request(index: number): WorkerRequest;
  /** Does task `index` in this thread; without it, this thread only hands out tasks. */
  local?: ((index: number) => WorkerResponse) | undefined;
  onResponse(response: WorkerResponse): void;
  onWorkerFailure?: ((message: string) => void) | undefined;
}

/**
 * Does `count` tasks in this thread and on `workers` worker threads, each taking the next task when
 * it is free, and passes every response to `onResponse`. This thread works too (between tasks it
 * yields, so worker responses are handled), and each worker holds two requests so that it starts
 * the next as soon as it finishes one. A worker that dies while working fails the task it was on
 * (with the reason), its queued task goes back to the queue and it is replaced, so one bad paper
 * never stops the run; a worker that cannot start is reported and not replaced (the others and this
 * thread finish the work).
 */
export function runPool(
  count: number,
  workers: number,
  startWorker: () => Worker,
  tasks: PoolTasks,
): Promise<void> {
  if (count === 0) return Promise.resolve();
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
        tasks.onResponse(response);
      } catch (error) {
        settle(error);
        return false;
      }
      if (++answered === count) settle();
      return !settled;
    };
    const start = () => {
      const worker = startWorker();
      pool.add(worker);
      let ready = false;
      const inFlight: number[] = []; // answered in the order sent
      const fill = () => {
        while (!settled && inFlight.length < 2 && unsent.length > 0) {
          const g = unsent.pop()!;
          try {
            worker.postMessage(tasks.request(g));
            inFlight.push(g);
          } catch (error) {
            // The task could not be prepared or copied (e.g. its paper could not be read).
            record({ group: g, error: (error as Error).message });
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
      // A worker ends with 'error' (an uncaught exception, then 'exit') or only 'exit' (it exited).
      const lost = (why: string) => {
        if (!pool.delete(worker)) return; // already handled, or terminated by settle()
        void worker.terminate();
        if (settled) return;
        if (!ready) {
          const reason = `a grading worker could not start: ${why}`;
          tasks.onWorkerFailure?.(reason);
          if (!tasks.local && pool.size === 0) settle(new Error(reason));
          else runLocally(); // in case this thread had already run out of tasks
          return;
        }
        const [failing, ...queued] = inFlight;
        unsent.push(...queued.reverse());
        const reason = `the grading worker stopped: ${why}`;
        tasks.onWorkerFailure?.(reason);
        if (failing !== undefined && !record({ group: failing, error: reason })) return;
        if (unsent.length > 0) start();
        else if (!tasks.local && pool.size === 0 && answered < count) settle(new Error(reason));
      };
      worker.on('error', (error) => lost(error.message));
      worker.on('exit', (code) => lost(`it exited with code ${code}`));
    };
    let localBusy = false;
    const runLocally = () => {
      if (!tasks.local || localBusy || settled) return;
      const g = unsent.pop();
      if (g === undefined) return;
      localBusy = true;
      let response: WorkerResponse;
      try {
        response = tasks.local(g);
      } catch (error) {
        response = { group: g, error: (error as Error).message };
      }
      localBusy = false;
      if (record(response)) setImmediate(runLocally);
    };
    for (let t = 0; t < Math.min(workers, tasks.local ? count - 1 : count); t++) start();
    runLocally();
  });
}

/** A grading worker; from the TypeScript sources (tests, benchmarks) it starts through tsx. */
function startWorker(settings: WorkerSettings): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './grading-worker.dev.mjs' : './grading-worker.js', import.meta.url);
  return new Worker(entry, { workerData: settings });
}
