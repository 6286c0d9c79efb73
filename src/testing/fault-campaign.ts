import { memoryIo, runCli } from '../cli/index.js';
import { isErrorCode } from '../core/index.js';

/**
 * How one bad input ended:
 * - `refused`: a non-zero exit with a coded error from the table (problem + fix), the only good end
 *   for an input that is invalid;
 * - `accepted`: exit 0 for an input the case declares valid (a BOM, CRLF, a harmless bit flip);
 * - `silent`: exit 0 for an input the case declares invalid (the failure the campaign hunts);
 * - `crash`: an uncoded error, a stack trace, "please report this as a bug" or an unknown code;
 * - `hang`: longer than `HANG_MS`.
 */
export type Outcome = 'refused' | 'accepted' | 'silent' | 'crash' | 'hang';

export const HANG_MS = 60_000;

export interface CliResult {
  code: number;
  out: string;
  err: string;
  ms: number;
}

/** Runs the CLI in-process (no process per case) and times it. */
export async function runCase(argv: string[], cwd: string): Promise<CliResult> {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const t = performance.now();
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr(), ms: performance.now() - t };
}

const STACK = /\n\s+at .+:\d+:\d+\)?\n|please report this as a bug|\[INTERNAL\]/;

/** The codes a run printed: `error [CODE]: …`, `skipped [CODE] <where>: …` (one bad row of a batch), ingest's `[CODE]`. */
export function printedCodes(result: CliResult): string[] {
  const text = `${result.out}\n${result.err}`;
  return [...text.matchAll(/(?:^error |^skipped |FAILED {5}\S+: )\[([A-Z0-9_]+)\]/gm)].map(
    (m) => m[1] as string,
  );
}

/** Classifies a run of a case that should be refused (`valid: false`) or accepted (`valid: true`). */
export function classify(result: CliResult, valid: boolean): Outcome {
  if (result.ms > HANG_MS) return 'hang';
  const text = `${result.out}\n${result.err}`;
  if (STACK.test(text)) return 'crash';
  const codes = printedCodes(result);
  if (codes.some((c) => !isErrorCode(c))) return 'crash';
  if (result.code === 0) return valid ? 'accepted' : 'silent';
  if (codes.length === 0) return 'crash';
  return 'refused';
}

/** Counts per category, with a few examples of every bad end for the failure message. */
export class Tally {
  readonly rows = new Map<string, Record<Outcome | 'cases', number> & { maxMs: number }>();
  readonly codes = new Map<string, number>();
  readonly bad: string[] = [];

  add(category: string, outcome: Outcome, result: CliResult, label: string): void {
    let row = this.rows.get(category);
    if (!row) {
      row = { cases: 0, refused: 0, accepted: 0, silent: 0, crash: 0, hang: 0, maxMs: 0 };
      this.rows.set(category, row);
    }
    row.cases++;
    row[outcome]++;
    row.maxMs = Math.max(row.maxMs, result.ms);
    for (const c of printedCodes(result)) this.codes.set(c, (this.codes.get(c) ?? 0) + 1);
    if (outcome === 'silent' || outcome === 'crash' || outcome === 'hang') {
      const key = `${category} ${outcome}`;
      const seen = this.bad.filter((b) => b.startsWith(`${key}:`)).length;
      if (seen < 4)
        this.bad.push(`${category} ${outcome}: ${label}\n${(result.err || result.out).slice(0, 600)}`);
    }
  }

  /** The examples of bad ends (silent success, crash, hang) in these categories. */
  badIn(...categories: string[]): string[] {
    return this.bad.filter((b) => categories.some((c) => b.startsWith(`${c} `)));
  }

  /** How many cases these categories ran. */
  casesIn(...categories: string[]): number {
    return categories.reduce((n, c) => n + (this.rows.get(c)?.cases ?? 0), 0);
  }

  get total(): Record<Outcome | 'cases', number> {
    const t = { cases: 0, refused: 0, accepted: 0, silent: 0, crash: 0, hang: 0 };
    for (const r of this.rows.values()) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += r[k];
    return t;
  }

  markdown(): string {
    const lines = [
      '| inputs | cases | refused with a coded error | accepted (valid input) | silent successes | crashes | hangs (> 60 s) | slowest |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const [name, r] of this.rows) {
      lines.push(
        `| ${name} | ${r.cases} | ${r.refused} | ${r.accepted} | ${r.silent} | ${r.crash} | ${r.hang} | ${(r.maxMs / 1000).toFixed(1)} s |`,
      );
    }
    const t = this.total;
    lines.push(
      `| **all** | **${t.cases}** | **${t.refused}** | **${t.accepted}** | **${t.silent}** | **${t.crash}** | **${t.hang}** | |`,
    );
    const codes = [...this.codes].sort((a, b) => b[1] - a[1]).map(([c, n]) => `\`${c}\` ${n}`);
    lines.push('', `Codes printed: ${codes.join(', ')}.`);
    return lines.join('\n');
  }
}
