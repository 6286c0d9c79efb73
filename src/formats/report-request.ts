/**
 * Report requests (topics), one JSON object per line: the RAGTIME / NeuCLIR layout `{request_id,
 * title, background, problem_statement, limit, collection_ids}` (also with the published
 * `backround` typo, as in the NeuCLIR 2024 topic files), and rag-run-validator topics keyed by
 * `topic_id`. `limit` is the report length limit; rag-run-validator counts it in NFKC characters
 * unless told to count words.
 */
import { z } from 'zod';
import { CitegeistError, describeIssues, location, quoteValue } from '../core/index.js';

export interface ReportRequest {
  id: string;
  title: string | null;
  background: string | null;
  problemStatement: string | null;
  /** Length limit of the report, or null when the request sets none. */
  limit: number | null;
  raw: Record<string, unknown>;
  where: string;
}

const ID_FIELDS = ['request_id', 'topic_id', 'query_id', 'qid', 'id'] as const;

const RequestLine = z.looseObject({
  title: z.string().nullish(),
  query: z.string().nullish(),
  background: z.string().nullish(),
  backround: z.string().nullish(),
  problem_statement: z.string().nullish(),
  limit: z.number().int().positive().nullish(),
});

/** One request line in any of the accepted layouts. */
export function parseRequest(value: unknown, where: string): ReportRequest {
  const parsed = RequestLine.safeParse(value);
  if (!parsed.success) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} is not a valid request: ${describeIssues(parsed.error)}.`,
      'Each line needs request_id (or topic_id), and optionally title, background, problem_statement, limit.',
    );
  }
  const raw = value as Record<string, unknown>;
  const idField = ID_FIELDS.find((f) => typeof raw[f] === 'string' || typeof raw[f] === 'number');
  if (!idField) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${where} has no request id (looked for ${ID_FIELDS.join(', ')}).`,
      'Add "request_id" to every line.',
    );
  }
  const r = parsed.data;
  return {
    id: String(raw[idField]),
    title: r.title ?? r.query ?? null,
    background: r.background ?? r.backround ?? null,
    problemStatement: r.problem_statement ?? null,
    limit: r.limit ?? null,
    raw,
    where,
  };
}

/** Reads a requests JSONL; every line must be valid and ids unique (a bad topic file is fatal). */
export function parseRequests(text: string, file: string): Map<string, ReportRequest> {
  const out = new Map<string, ReportRequest>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = location(file, i + 1);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new CitegeistError(
        'INVALID_JSON',
        `${where} is not JSON (${(error as Error).message}).`,
        'Requests are JSON Lines: one request object per line.',
      );
    }
    const request = parseRequest(value, where);
    const seen = out.get(request.id);
    if (seen) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `Request ${quoteValue(request.id)} appears twice: ${seen.where} and ${where}.`,
        'Keep one line per request.',
      );
    }
    out.set(request.id, request);
  });
  return out;
}

/** The request as one text for prompts and lexical matching: title, problem statement, background. */
export function requestText(request: ReportRequest): string {
  return [request.title, request.problemStatement, request.background].filter((s) => s).join('\n');
}
