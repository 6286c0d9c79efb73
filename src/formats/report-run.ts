/**
 * Report runs: one JSON object per line, one report per request, in the layouts of the TREC
 * RAG-family tracks, all read into one `Report` shape:
 *
 * - `ragtime` — the rag-run-validator schema (hltcoe/rag-run-validator `data/default.json`), used by
 *   RAGTIME, NeuCLIR 2025, RAG 2025, DRAGUN: `{metadata{team_id, run_id, topic_id}, responses[{text,
 *   citations: [doc_id] | {doc_id: score}}], references: [doc_id]}`;
 * - `neuclir-2024` — NeuCLIR 2024 report generation: `{request_id, run_id?, collection_ids,
 *   sentences[{text, citations: [doc_id]}]}` (the run id may come from the file name, as
 *   hltcoe/rag-annotation-tool `scripts/prepare_utils.py` takes it);
 * - `trec-rag-2024` — TREC RAG 2024 generation answers: `{run_id, topic_id, topic, references:
 *   [doc_id], response_length, answer[{text, citations: [index into references]}]}`.
 *
 * The line as read is kept (`raw`), so a run reads and writes back equal, unknown fields included.
 */
import { z } from 'zod';
import { CitegeistError, describeIssues, location } from '../core/index.js';
import { orderedEntries, orderedObject, parsePythonJson } from '../python-compat/index.js';

export type ReportFormat = 'ragtime' | 'neuclir-2024' | 'trec-rag-2024';
export const REPORT_FORMATS: readonly ReportFormat[] = ['ragtime', 'neuclir-2024', 'trec-rag-2024'];

export interface ReportSentence {
  text: string;
  /** Cited document ids in the order given (indices already resolved for TREC RAG 2024). */
  citations: string[];
  /** Per-citation scores when citations were `{doc_id: score}` (RAGTIME confidences), else null. */
  scores: number[] | null;
}

export interface Report {
  format: ReportFormat;
  runId: string;
  teamId: string | null;
  topicId: string;
  sentences: ReportSentence[];
  references: string[];
  /** The line as read (for writing back and for the judgments' `report` field). */
  raw: Record<string, unknown>;
  /** File and line. */
  where: string;
}

const Id = z.union([z.string(), z.number()]).transform(String);

const RagtimeLine = z.looseObject({
  metadata: z.looseObject({ team_id: z.string(), run_id: z.string(), topic_id: Id }),
  responses: z.array(
    z.looseObject({
      text: z.string(),
      citations: z.union([z.array(z.string()), z.record(z.string(), z.number())]),
    }),
  ),
  references: z.array(z.string()),
});

const NeuclirLine = z.looseObject({
  request_id: Id,
  run_id: z.string().optional(),
  team_id: z.string().optional(),
  sentences: z.array(z.looseObject({ text: z.string(), citations: z.array(z.string()).nullish() })),
});

const RagLine = z.looseObject({
  run_id: z.string(),
  topic_id: Id,
  references: z.array(z.string()),
  answer: z.array(z.looseObject({ text: z.string(), citations: z.array(z.number().int()).nullish() })),
});

/** Which layout a parsed line is in (by its distinctive fields), or null. */
export function detectReportFormat(value: unknown): ReportFormat | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if ('responses' in v || 'metadata' in v) return 'ragtime';
  if ('sentences' in v) return 'neuclir-2024';
  if ('answer' in v) return 'trec-rag-2024';
  return null;
}

/** A line problem: thrown by `parseReport`, collected by readers that go on with the other lines. */
function bad(where: string, what: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${where} is not a valid report: ${what}.`,
    'Fix the line (docs/reports.md lists the accepted layouts) or drop it, and run the command again.',
  );
}

/** Parses one run line in any of the layouts; `runIdFallback` names NeuCLIR 2024 runs without one. */
export function parseReport(value: unknown, where: string, runIdFallback = 'run'): Report {
  const format = detectReportFormat(value);
  if (!format) {
    throw bad(
      where,
      'it has none of "responses" (RAGTIME), "sentences" (NeuCLIR 2024), "answer" (TREC RAG 2024)',
    );
  }
  const raw = value as Record<string, unknown>;
  if (format === 'ragtime') {
    const r = RagtimeLine.safeParse(value);
    if (!r.success) throw bad(where, describeIssues(r.error));
    const { metadata, responses, references } = r.data;
    // The raw dicts, not zod's copies: their written key order survives (doc ids may look numeric).
    const rawResponses = raw.responses as { citations: Record<string, number> | string[] }[];
    return {
      format,
      runId: metadata.run_id,
      teamId: metadata.team_id,
      topicId: metadata.topic_id,
      sentences: responses.map((s, i) => {
        const cited = rawResponses[i]!.citations;
        if (Array.isArray(cited)) return { text: s.text, citations: [...cited], scores: null };
        const entries = orderedEntries(cited) as [string, number][];
        return { text: s.text, citations: entries.map(([k]) => k), scores: entries.map(([, v]) => v) };
      }),
      references,
      raw,
      where,
    };
  }
  if (format === 'neuclir-2024') {
    const r = NeuclirLine.safeParse(value);
    if (!r.success) throw bad(where, describeIssues(r.error));
    const sentences = r.data.sentences.map((s) => ({
      text: s.text,
      citations: s.citations ?? [],
      scores: null,
    }));
    return {
      format,
      runId: r.data.run_id ?? runIdFallback,
      teamId: r.data.team_id ?? null,
      topicId: r.data.request_id,
      sentences,
      references: [...new Set(sentences.flatMap((s) => s.citations))],
      raw,
      where,
    };
  }
  const r = RagLine.safeParse(value);
  if (!r.success) throw bad(where, describeIssues(r.error));
  const { references } = r.data;
  const sentences = r.data.answer.map((s, i) => ({
    text: s.text,
    citations: (s.citations ?? []).map((c) => {
      const id = references[c];
      if (id === undefined) {
        throw bad(where, `answer[${i}] cites index ${c}, but "references" has ${references.length} entries`);
      }
      return id;
    }),
    scores: null,
  }));
  return {
    format,
    runId: r.data.run_id,
    teamId: null,
    topicId: r.data.topic_id,
    sentences,
    references,
    raw,
    where,
  };
}

export interface ReadRunResult {
  reports: Report[];
  /** Lines that could not be read (JSON or layout), with the reason; the other lines are kept. */
  problems: { where: string; line: number; problem: string }[];
}

/** Reads a JSONL run; a bad line is reported, never fatal. */
export function parseReportRun(text: string, file: string, runIdFallback = 'run'): ReadRunResult {
  const out: ReadRunResult = { reports: [], problems: [] };
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = location(file, i + 1);
    try {
      out.reports.push(parseReport(parsePythonJson(line, where), where, runIdFallback));
    } catch (error) {
      const problem = error instanceof CitegeistError ? error.problem : (error as Error).message;
      out.problems.push({ where, line: i + 1, problem });
    }
  });
  return out;
}

/** A report as a RAGTIME / rag-run-validator line (citations as `{doc_id: score}` when scored). */
export function toRagtimeLine(report: Report, collectionIds?: string[]): Record<string, unknown> {
  if (report.format === 'ragtime') return report.raw;
  const metadata: Record<string, unknown> = {
    team_id: report.teamId ?? report.runId,
    run_id: report.runId,
    topic_id: report.topicId,
  };
  if (collectionIds) metadata.collection_ids = collectionIds;
  return {
    metadata,
    responses: report.sentences.map((s) => ({
      text: s.text,
      citations: s.scores
        ? orderedObject(s.citations.map((c, i) => [c, s.scores?.[i] ?? 0]))
        : [...s.citations],
    })),
    references: report.references,
  };
}
