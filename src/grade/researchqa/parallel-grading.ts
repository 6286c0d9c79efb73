/**
 * Deterministic grading of a whole run on several threads. Rows are grouped by paper and the groups
 * handed out largest first, each to the next free thread (this one included), so every paper is
 * prepared once, by one thread, and released as soon as its rows are scored. The metrics are pure
 * functions of (row, answer, paper text), so the grades equal `DeterministicGrader`'s whatever the
 * thread count.
 *
 * Threads are used only when they pay: a worker thread loads the grading modules again before it
 * grades anything (~100 ms of CPU, 100–200 ms until it is ready), so this thread starts grading
 * alone, measures its pace, and starts the workers only once the work left (at that pace) would
 * take longer than `workerStartMs`. Small runs never start one.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  citationCount,
  type DatasetRow,
  type DatasetRowRef,
  type RunRow,
  type RunRowRef,
} from '../../core/index.js';
import type { MatchForms, MatchMode } from '../../text/index.js';
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

/** One answer to grade against its dataset row (or a reference to it, read when graded). */
export interface GradingJob {
  row: DatasetRow | DatasetRowRef;
  run: RunRow | RunRowRef;
}

/** Whether a job's row is a reference (`DatasetRowRef`) rather than the row. */
export function isRowRef(row: DatasetRow | DatasetRowRef): row is DatasetRowRef {
  return typeof (row as DatasetRowRef).load === 'function';
}

/** The whole dataset row of a job (read from its file when it is a reference). */
export function wholeRow(row: DatasetRow | DatasetRowRef): DatasetRow {
  return isRowRef(row) ? row.load() : row;
}

/** The whole run row of a job (read from its file when it is a reference). */
export function wholeRun(run: RunRow | RunRowRef): RunRow {
  return 'load' in run ? run.load() : run;
}

export interface DeterministicGradingOptions extends DeterministicOptions {
  /**
   * The quote matcher's stored forms of a paper's text (`matchForms`, kept by the corpus and the
   * papers cache), so the paper is not normalised again; null or absent: computed from the text.
   */
  paperForms?: (paperId: string) => MatchForms | null;
  /**
   * Threads to grade on at most, this one included (default: the machine's available parallelism;
   * 1 grades in this thread only). Workers start only when the work pays for them (`workerStartMs`).
   */
  threads?: number;
  /**
   * Workers start once the work left, at the pace this thread measured on the first papers, is
   * estimated to take longer than this many milliseconds (default 400: about twice what a worker
   * takes to start on a loaded two-core machine). 0 starts them at once.
   */
  workerStartMs?: number;
  /**
   * Grade on this thread too (default true). false leaves this thread free (a server's event loop,
   * say): every row is then graded on worker threads, however few.
   */
  useThisThread?: boolean;
  /**
   * Called as each row's grade is ready (in completion order, with the row's input index and the
   * whole answer it graded, read once for scoring when the job held a reference).
   */
  onRow?: (grade: GradeRow, index: number, answer: RunRow) => void;
  /**
   * Keep the grades and return them (default true). false returns an empty list: the rows only go
   * to `onRow` (a large grading that writes them out need not hold them all).
   */
  keep?: boolean;
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
  forms: MatchForms | null;
  rows: ScoringRow[];
}

export type WorkerResponse =
  | { group: number; thread?: number; scores: CitationScores[] }
  | { group: number; error: string };

/** A worker's first message, once it has loaded. */
export const WORKER_READY = 'ready';

const WORKER_START_MS = 400;

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
  const keep = options.keep ?? true;
  const grades: GradeRow[] = keep ? new Array(jobs.length) : [];
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const here = options.useThisThread ?? true;
  // The answers of a group in flight, read once (from the run file, for references) for scoring
  // and for `onRow`, and dropped when the group's grades are recorded.
  const loaded = new Map<number, RunRow[]>();
  const answers = (g: number): RunRow[] => {
    let list = loaded.get(g);
    if (!list) {
      list = groups[g]!.indices.map((i) => wholeRun(jobs[i]!.run));
      loaded.set(g, list);
    }
    return list;
  };
  const paperOf = (g: number) => {
    const id = groups[g]!.paperId;
    return { text: paperText(id), forms: options.paperForms?.(id) ?? null };
  };
  await runPool(groups.length, here ? threads - 1 : threads, () => startWorker(settings), {
    size: (g) => groups[g]!.work,
    workerStartMs: options.workerStartMs ?? WORKER_START_MS,
    request: (g) => ({ group: g, ...paperOf(g), rows: scoringRows(jobs, groups[g]!, answers(g)) }),
    local: here
      ? (g) => ({
          group: g,
          scores: scorePaperRows(
            paperOf(g),
            scoringRows(jobs, groups[g]!, answers(g)),
            match,
            settings.quoteMode,
            scoreOptions(settings.match),
          ),
        })
      : undefined,
    onResponse: (response) => {
      const group = groups[response.group]!;
      if ('scores' in response) options.onPaper?.(group.paperId, response.thread ?? 0);
      const answered = answers(response.group);
      loaded.delete(response.group);
      for (const [k, i] of group.indices.entries()) {
        const job = jobs[i]!;
        const scores =
          'scores' in response ? response.scores[k]! : allFailed(`grading failed: ${response.error}`);
        const grade = gradeRowOf(job.row, job.run, scores);
        if (keep) grades[i] = grade;
        options.onRow?.(grade, i, answered[k]!);
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
  /** Its work, in units of `jobWork`. */
  work: number;
}

/**
 * A job's work, roughly: one unit per row, per quote (its look-up in the paper) and per quote ×
 * evidence alternative pair (a difflib ratio, the bulk of the time).
 */
function jobWork({ row, run }: GradingJob): number {
  let alternatives = 0;
  if (isRowRef(row)) alternatives = row.alternatives;
  else for (const g of row.expected_references) alternatives += g.alternatives.length;
  return 1 + citationCount(run) * (1 + alternatives);
}

/** Jobs grouped by paper, the most work first (so the last groups to finish are small). */
function groupByPaper(jobs: readonly GradingJob[]): PaperGroup[] {
  const byPaper = new Map<string, PaperGroup>();
  for (const [i, job] of jobs.entries()) {
    const group = byPaper.get(job.row.paper_id);
    if (group) {
      group.indices.push(i);
      group.work += jobWork(job);
    } else byPaper.set(job.row.paper_id, { paperId: job.row.paper_id, indices: [i], work: jobWork(job) });
  }
  return [...byPaper.values()].sort((a, b) => b.work - a.work);
}

/** Only what the metrics read, so little is copied to a worker. */
function scoringRows(jobs: readonly GradingJob[], group: PaperGroup, answers: RunRow[]): ScoringRow[] {
  return group.indices.map((i, k) => {
    const run = answers[k]!;
    const row = wholeRow(jobs[i]!.row);
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
  /**
   * The work of task `index` (any unit). With `local`, workers then start only once the work left,
   * at the pace measured in this thread, would take longer than `workerStartMs`.
   */
  size?: ((index: number) => number) | undefined;
  workerStartMs?: number | undefined;
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
 * thread finish the work). With `tasks.size` and `tasks.local`, workers start late or never (see
 * `PoolTasks.size`).
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
      // Decided at 'exit', not at 'error': Node delivers every message a worker sent before its
      // 'exit', but may emit 'error' first, and a response still on its way would otherwise be
      // taken for the failing task (which would then be answered twice).
      let error: string | undefined;
      worker.on('error', (e) => {
        error ??= e.message;
      });
      worker.on('exit', (code) => lost(error ?? `it exited with code ${code}`));
    };
    let localBusy = false;
    // Deferred workers: the work left and this thread's measured pace decide when they start.
    const size = tasks.local ? tasks.size : undefined;
    let workLeft = 0;
    if (size) for (let g = 0; g < count; g++) workLeft += size(g);
    let localWork = 0;
    let localMs = 0;
    let started = false;
    const startWorkers = () => {
      started = true;
      // This thread takes one of the tasks left: a worker for it would only start and stop.
      for (let t = 0; t < Math.min(workers, unsent.length - (tasks.local ? 1 : 0)); t++) start();
    };
    const runLocally = () => {
      if (!tasks.local || localBusy || settled) return;
      const g = unsent.pop();
      if (g === undefined) return;
      localBusy = true;
      const t0 = performance.now();
      let response: WorkerResponse;
      try {
        response = tasks.local(g);
      } catch (error) {
        response = { group: g, error: (error as Error).message };
      }
      localBusy = false;
      if (size && !started) {
        const work = size(g);
        localWork += work;
        workLeft -= work;
        localMs += performance.now() - t0;
        if (localWork > 0 && (workLeft * localMs) / localWork > (tasks.workerStartMs ?? 0)) startWorkers();
      }
      if (record(response)) setImmediate(runLocally);
    };
    if (!size || (tasks.workerStartMs ?? 0) <= 0) startWorkers();
    runLocally();
  });
}

/**
 * A grading worker; from the TypeScript sources (tests, benchmarks) it starts through tsx. Its
 * young generation is kept small (8 MB, against up to ~48 MB by default): a worker holds one
 * paper's rows at a time, and the default would add tens of megabytes to a large grading's peak.
 */
function startWorker(settings: WorkerSettings): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSources ? './grading-worker.dev.mjs' : './grading-worker.js', import.meta.url);
  return new Worker(entry, { workerData: settings, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
}
