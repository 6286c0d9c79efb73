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
  /** Where the bad value is (file, line, row, field), when it came from an input. */
  readonly where: ErrorLocation | undefined;

  constructor(
    code: ErrorCode,
    problem: string,
    fix: string,
    options?: { cause?: unknown; where?: ErrorLocation },
  ) {
    super(`${problem} ${fix}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CitegeistError';
    this.code = code;
    this.problem = problem;
    this.fix = fix;
    this.where = options?.where;
  }
}

/**
 * Where in an input an error is, as data (zod's `path` does the same for a value): scripts read
 * `error.where.line` instead of parsing the message. `row` is a row id (or index) within the file.
 */
export interface ErrorLocation {
  file?: string;
  line?: number;
  row?: string | number;
  field?: string;
}

/** `rows.jsonl line 12, row "q7", field "quote"`: an ErrorLocation as the CLI prints it. */
export function describeLocation(where: ErrorLocation): string {
  const parts: string[] = [];
  let head = where.file ?? '';
  if (where.line !== undefined) head += head === '' ? `line ${where.line}` : ` line ${where.line}`;
  if (head !== '') parts.push(head);
  if (where.row !== undefined) parts.push(`row ${quoteValue(where.row)}`);
  if (where.field !== undefined) parts.push(`field "${where.field}"`);
  return parts.join(', ');
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
