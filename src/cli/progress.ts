import cliProgress from 'cli-progress';
import type { TokenUsage } from '../llm/index.js';
import type { CliIo } from './io.js';
import { trackProgress } from './progress-registry.js';

/** What a long run reports per finished item. */
export interface ProgressItem {
  ok: boolean;
  /** Shown beside a live bar (e.g. the file just read). */
  note?: string;
  /** Why the item failed: printed as its own line when stderr is not a terminal. */
  problem?: string;
}

/**
 * One finished model call, as the provider layer reports it (`CallEvent`, or a structured call's
 * meta): the usage the server reported (null when it reported none), the cost, and whether the
 * reply came from the response cache.
 */
export interface ModelCall {
  /** False for a call that got no reply (an HTTP error, a timeout): it has no usage to report. */
  ok?: boolean;
  usage: TokenUsage | null;
  costUsd: number | null;
  cached: boolean;
}

export interface Progress {
  tick(item: ProgressItem): void;
  /** Counts a model call's tokens and cost. Tokens are shown only once a call was counted. */
  call(call: ModelCall): void;
  /** Prints the final line (and removes the bar). */
  stop(): void;
  readonly done: number;
  readonly failed: number;
}

export interface ProgressOptions {
  io: CliIo;
  label: string;
  total: number;
  /** A plain line at most this often when stderr is not a terminal (default 10 s). */
  intervalMs?: number;
  /** What is counted, shown after the counts on a live bar (e.g. "files"). */
  unit?: string;
  /**
   * Show the rate in these units per second (e.g. "papers": ", 41.3 papers/s"), once a second has
   * passed: throughput is what a user of a long batch job (ingest, index) compares runs by.
   */
  rate?: string;
  /** The stream a live bar draws on (default: `io.err` as a terminal; only used when io.interactive). */
  stream?: NodeJS.WritableStream;
  now?: () => number;
  /** When the work began (default: now); a lazy reporter made at the first result passes its start. */
  startedAt?: number;
  /**
   * What an interrupted run leaves and how to go on, printed after Ctrl-C or SIGTERM (default: the
   * finished items are saved and the same command continues from them).
   */
  onInterrupt?: string;
}

/** Model calls counted so far: tokens are those the server reported for fresh (uncached) calls. */
interface CallTally {
  calls: number;
  failed: number;
  cached: number;
  /** Fresh calls whose reply carried no usage (their tokens are unknown, not 0). */
  noUsage: number;
  tokens: number;
  cost: number;
  priced: boolean;
}

function countCall(t: CallTally, call: ModelCall): void {
  t.calls++;
  if (call.ok === false) t.failed++;
  if (call.cached) t.cached++;
  else if (call.usage) t.tokens += call.usage.inputTokens + call.usage.outputTokens;
  else if (call.ok !== false) t.noUsage++;
  if (typeof call.costUsd === 'number') {
    t.cost += call.costUsd;
    t.priced = true;
  }
}

/** ", 9 model calls (2 cached, 1 failed), 1,234 tokens, $0.0012"; empty when no model call was counted. */
function usageText(t: CallTally): string {
  if (t.calls === 0) return '';
  const calls = `${t.calls.toLocaleString('en-US')} model call${t.calls === 1 ? '' : 's'}`;
  const notes = [
    ...(t.cached > 0 ? [`${t.cached.toLocaleString('en-US')} cached`] : []),
    ...(t.failed > 0 ? [`${t.failed.toLocaleString('en-US')} failed`] : []),
  ];
  const cached = notes.length > 0 ? ` (${notes.join(', ')})` : '';
  const missing = t.noUsage > 0 ? ` (${t.noUsage} call${t.noUsage === 1 ? '' : 's'} reported no usage)` : '';
  const cost = t.priced ? `, $${t.cost.toFixed(4)}` : '';
  return `, ${calls}${cached}, ${t.tokens.toLocaleString('en-US')} tokens${missing}${cost}`;
}

/**
 * A progress reporter for every long-running command: done/failed counts, ETA, and for work that
 * calls a model, the calls, the tokens the server reported and the cost so far (fed by `call`, e.g.
 * from `LlmRuntime.onCall`). On a terminal a cli-progress bar redraws on stderr; otherwise (pipes,
 * CI, tests) plain lines are written at most every `intervalMs`, plus one at the end.
 */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const started = options.startedAt ?? now();
  const state = { done: 0, failed: 0 };
  const usage: CallTally = { calls: 0, failed: 0, cached: 0, noUsage: 0, tokens: 0, cost: 0, priced: false };
  let stopped = false;
  let lastLine = started;
  const rateText = () => {
    const elapsed = now() - started;
    if (!options.rate || elapsed < 1000) return '';
    return `, ${((1000 * state.done) / elapsed).toFixed(1)} ${options.rate}/s`;
  };
  const line = () => {
    const elapsed = now() - started;
    const eta = state.done > 0 ? ((options.total - state.done) * elapsed) / state.done : Number.NaN;
    return `${options.label}: ${state.done}/${options.total} done, ${state.failed} failed, ETA ${duration(eta)}${rateText()}${usageText(usage)}`;
  };
  const bar = options.io.interactive
    ? new cliProgress.SingleBar(
        {
          stream: options.stream ?? terminalOf(options.io),
          format: `${options.label} [{bar}] {value}/{total}${options.unit ? ` ${options.unit}` : ''}{note} | failed {failed} | ETA {eta_formatted}{rate}{usage}`,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.legacy,
      )
    : null;
  const barUsage = () => usageText(usage).replace(/^, /, ' | ');
  bar?.start(options.total, 0, { failed: 0, usage: '', note: '', rate: '' });
  const untrack = trackProgress({ stop: () => progress.stop(), onInterrupt: options.onInterrupt });
  const progress: Progress = {
    tick(item) {
      state.done++;
      if (!item.ok) state.failed++;
      if (bar) {
        bar.update(state.done, {
          failed: state.failed,
          rate: rateText().replace(/^, /, ' | '),
          usage: barUsage(),
          note: item.note ? ` | ${item.note}` : '',
        });
        return;
      }
      if (!item.ok && item.problem) options.io.err(`${options.label} failed: ${item.problem}\n`);
      if (now() - lastLine >= (options.intervalMs ?? 10_000)) {
        lastLine = now();
        options.io.err(`${line()}\n`);
      }
    },
    call(call) {
      // Calls that finish after the final line (a cancelled run's stragglers) are not counted.
      if (stopped) return;
      countCall(usage, call);
      bar?.update(state.done, { usage: barUsage() });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      untrack();
      bar?.stop();
      options.io.err(`${line().replace(/, ETA [^,]+/, `, took ${duration(now() - started)}`)}\n`);
    },
    get done() {
      return state.done;
    },
    get failed() {
      return state.failed;
    },
  };
  return progress;
}

/** `io.err` as a terminal stream for cli-progress (so tests and wrappers see the bar too). */
function terminalOf(io: CliIo): NodeJS.WritableStream {
  const stream = {
    isTTY: true,
    columns: process.stderr.columns ?? 100,
    write: (s: string) => {
      io.err(s);
      return true;
    },
  };
  return stream as unknown as NodeJS.WritableStream;
}

/** 75_000 → "1m15s"; NaN → "?". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A reporter for callbacks that learn the total only with the first finished item. */
export interface LazyProgress {
  tick(item: ProgressItem, total: number): void;
  /** Counts a model call (kept until the reporter exists, i.e. until the first tick). */
  call(call: ModelCall): void;
  /** Prints the final line, if anything was ticked (once; later calls do nothing). */
  stop(): void;
}

export function createLazyProgress(options: Omit<ProgressOptions, 'total'>): LazyProgress {
  let progress: Progress | null = null;
  let stopped = false;
  const pending: ModelCall[] = [];
  // The time taken counts from here, not from the first result (a first PDF can take seconds).
  const startedAt = (options.now ?? Date.now)();
  return {
    tick(item, total) {
      if (!progress) {
        progress = createProgress({ startedAt, ...options, total });
        for (const c of pending.splice(0)) progress.call(c);
      }
      progress.tick(item);
    },
    call(call) {
      if (progress) progress.call(call);
      else if (!stopped) pending.push(call);
    },
    stop() {
      stopped = true;
      progress?.stop();
      progress = null;
    },
  };
}
