import { z } from 'zod';
import { CitationSchema, describeIssues, parseJsonl, quoteValue } from '../../core/index.js';
import { normaliseKey } from './markers.js';

/** One long answer to grade, with the source excerpts its markers cite (keys as markers spell them). */
export interface FaithfulnessInput {
  id: string;
  question: string;
  answer: string;
  sources: Record<string, string>;
  /** Which layout the row was read from. */
  layout: 'native' | 'run' | 'researchqa';
}

/** A row that could not be read: reported with its line and skipped. */
export interface InputProblem {
  line: number;
  problem: string;
}

const NativeSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  question: z.string().default(''),
  answer: z.string(),
  sources: z.record(z.string(), z.string()),
});
/** citegeist run rows (src/core/run.ts): their citations become the sources. */
const RunSchema = z.object({
  row_id: z.string().min(1),
  question: z.string().default(''),
  answer: z.string(),
  citations: z.array(CitationSchema).default([]),
  error: z.string().nullable().default(null),
});
/** The published ResearchQA results layout. */
const ResearchQaSchema = z.object({
  row_id: z.string().min(1).optional(),
  id: z.union([z.string().min(1), z.number()]).optional(),
  question: z.string().default(''),
  actual_answer: z.string(),
  actual_citations: z
    .array(z.object({ key: z.union([z.string(), z.number()]), reference: z.string() }))
    .default([]),
});

const EVIDENCE_BLOCK = /\n?-{3}EVIDENCE-{3}[\s\S]*$/;

/**
 * Reads answers JSONL in any of the three layouts (detected per row: `sources` → native,
 * `actual_answer` → ResearchQA, `row_id` + `citations` → run row). Bad rows, failed run rows and
 * duplicate ids are returned as problems with their line, never thrown.
 */
export function readFaithfulnessInputs(text: string): {
  inputs: FaithfulnessInput[];
  problems: InputProblem[];
} {
  const inputs: FaithfulnessInput[] = [];
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const entry of parseJsonl(text)) {
    if (!entry.ok) {
      problems.push({ line: entry.line, problem: `not JSON (${entry.error}): ${quoteValue(entry.text)}` });
      continue;
    }
    const read = readRow(entry.value);
    if ('problem' in read) {
      problems.push({ line: entry.line, problem: read.problem });
    } else if (seen.has(read.id)) {
      problems.push({ line: entry.line, problem: `duplicate answer id ${quoteValue(read.id)}` });
    } else {
      seen.add(read.id);
      inputs.push(read);
    }
  }
  return { inputs, problems };
}

function readRow(value: unknown): FaithfulnessInput | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: `expected a JSON object, got ${quoteValue(value)}` };
  }
  if ('sources' in value) {
    const r = NativeSchema.safeParse(value);
    if (!r.success) return { problem: describeIssues(r.error) };
    const sources = Object.fromEntries(Object.entries(r.data.sources).map(([k, v]) => [normaliseKey(k), v]));
    return {
      id: String(r.data.id),
      question: r.data.question,
      answer: r.data.answer,
      sources,
      layout: 'native',
    };
  }
  if ('actual_answer' in value) {
    const r = ResearchQaSchema.safeParse(value);
    if (!r.success) return { problem: describeIssues(r.error) };
    const id = r.data.row_id ?? (r.data.id === undefined ? undefined : String(r.data.id));
    if (id === undefined) return { problem: 'field "row_id": missing (or give "id")' };
    const cites = r.data.actual_citations.map((c) => ({ key: String(c.key), quote: c.reference }));
    return {
      id,
      question: r.data.question,
      answer: stripEvidence(r.data.actual_answer),
      sources: toSources(cites),
      layout: 'researchqa',
    };
  }
  const r = RunSchema.safeParse(value);
  if (!r.success) return { problem: `not a native, run or ResearchQA row: ${describeIssues(r.error)}` };
  if (r.data.error !== null)
    return { problem: `the run row failed (${quoteValue(r.data.error)}); re-run it first` };
  return {
    id: r.data.row_id,
    question: r.data.question,
    answer: stripEvidence(r.data.answer),
    sources: toSources(r.data.citations),
    layout: 'run',
  };
}

/** Citations to sources; several quotes under one key are joined (each stays verbatim). */
function toSources(citations: { key: string; quote: string }[]): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const c of citations) {
    const key = normaliseKey(c.key);
    sources[key] = sources[key] === undefined ? c.quote : `${sources[key]}\n…\n${c.quote}`;
  }
  return sources;
}

function stripEvidence(answer: string): string {
  return answer.replace(EVIDENCE_BLOCK, '').trimEnd();
}
