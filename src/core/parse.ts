import type { z } from 'zod';
import { CitegeistError, type ErrorLocation, location } from './errors.js';

/** Renders zod issues as `field "a.b": message; …` for error messages. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.length > 0 ? `field "${issue.path.join('.')}"` : 'value';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Validates `value` with `schema`, throwing a CitegeistError that names the file, line and field.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: { file: string; line?: number; what: string; fix?: string },
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CitegeistError(
    'INVALID_INPUT',
    `${location(where.file, where.line)} is not a valid ${where.what}: ${describeIssues(result.error)}.`,
    where.fix ?? `Correct the ${where.what} in ${where.file} and run the command again.`,
    { where: locationOf(where.file, where.line, result.error.issues[0]?.path) },
  );
}

/** The structured location of a zod failure: the file, the line, and the first issue's field path. */
function locationOf(
  file: string,
  line: number | undefined,
  path: readonly PropertyKey[] | undefined,
): ErrorLocation {
  const where: ErrorLocation = { file };
  if (line !== undefined) where.line = line;
  if (path && path.length > 0) where.field = path.map(String).join('.');
  return where;
}
