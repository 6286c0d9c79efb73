import type { ErrorCode } from './error-codes.js';

/**
 * The one error type citegeist throws on purpose. Every instance carries a stable `code` that
 * scripts can branch on, a `problem` that quotes the bad value and where it came from (file, line,
 * field), and a `fix` that tells the user what to do. Codes come from the one table in
 * error-codes.ts. The CLI prints problem and fix; stacks only
 * with `--debug`.
 */
export class CitegeistError extends Error {
  readonly code: ErrorCode;
  readonly problem: string;
  readonly fix: string;

  constructor(code: ErrorCode, problem: string, fix: string, options?: { cause?: unknown }) {
    super(`${problem} ${fix}`, options);
    this.name = 'CitegeistError';
    this.code = code;
    this.problem = problem;
    this.fix = fix;
  }
}

export function isCitegeistError(error: unknown): error is CitegeistError {
  return error instanceof CitegeistError;
}

/** Quotes a user value for an error message: JSON-escaped and cut to a readable length. */
export function quoteValue(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Describes where a value came from, e.g. `rows.jsonl line 12, field "quote"`. */
export function location(file: string, line?: number, field?: string): string {
  let where = file;
  if (line !== undefined) where += ` line ${line}`;
  if (field !== undefined) where += `, field "${field}"`;
  return where;
}
