import cliProgress from 'cli-progress';
import type { CliIo } from './io.js';

/** What a long run reports per finished item. */
export interface ProgressItem {
  ok: boolean;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number | null;
  /** Shown beside a live bar (e.g. the file just read). */
  note?: string;
  /** Why the item failed: printed as its own line when stderr is not a terminal. */
  problem?: string;
}

export interface Progress {
  tick(item: ProgressItem): void;
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
  /** Show tokens (default true; false for work that calls no model). */
  tokens?: boolean;
  /** The stream a live bar draws on (default: `io.err` as a terminal; only used when io.interactive). */
  stream?: NodeJS.WritableStream;
  now?: () => number;
}

/**
 * A progress reporter for every long-running command: done/failed counts, ETA, tokens and cost
 * so far. On a terminal a cli-progress bar redraws on stderr; otherwise (pipes, CI, tests) plain
 * lines are written at most every `intervalMs`, plus one at the end.
 */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const started = now();
  const state = { done: 0, failed: 0, tokens: 0, cost: 0, priced: false };
  const showTokens = options.tokens ?? true;
  let lastLine = started;
  const line = () => {
    const elapsed = now() - started;
    const eta = state.done > 0 ? ((options.total - state.done) * elapsed) / state.done : Number.NaN;
    const cost = state.priced ? `, $${state.cost.toFixed(4)}` : '';
    const tokens = showTokens ? `, ${state.tokens.toLocaleString('en-US')} tokens` : '';
    return `${options.label}: ${state.done}/${options.total} done, ${state.failed} failed, ETA ${duration(eta)}${tokens}${cost}`;
  };
  const bar = options.io.interactive
    ? new cliProgress.SingleBar(
        {
          stream: options.stream ?? terminalOf(options.io),
          format: `${options.label} [{bar}] {value}/{total}${options.unit ? ` ${options.unit}` : ''}{note} | failed {failed} | ETA {eta_formatted}${showTokens ? ' | {tokens} tokens' : ''}{cost}`,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.legacy,
      )
    : null;
  bar?.start(options.total, 0, { failed: 0, tokens: 0, cost: '', note: '' });
  return {
    tick(item) {
      state.done++;
      if (!item.ok) state.failed++;
      state.tokens += (item.inputTokens ?? 0) + (item.outputTokens ?? 0);
      if (typeof item.costUsd === 'number') {
        state.cost += item.costUsd;
        state.priced = true;
      }
      if (bar) {
        bar.update(state.done, {
          failed: state.failed,
          tokens: state.tokens.toLocaleString('en-US'),
          cost: state.priced ? ` | $${state.cost.toFixed(4)}` : '',
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
    stop() {
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
  /** Prints the final line, if anything was ticked (once; later calls do nothing). */
  stop(): void;
}

export function createLazyProgress(options: Omit<ProgressOptions, 'total'>): LazyProgress {
  let progress: Progress | null = null;
  return {
    tick(item, total) {
      progress ??= createProgress({ ...options, total });
      progress.tick(item);
    },
    stop() {
      progress?.stop();
      progress = null;
    },
  };
}
