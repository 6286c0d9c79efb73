import { z } from 'zod';
import { parseEvidenceReply } from '../../answer/index.js';
import { CitationSchema, describeIssues, isManifestRecord, quoteValue } from '../../core/index.js';
import { parseJsonl } from '../../io/index.js';
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

/** A row that could not be read: reported with its line (or list item) and skipped. */
export interface InputProblem {
  /** 1-based line of a JSONL file, or 1-based item of a JSON list. */
  line: number;
  /** `line 3` or `item 3`. */
  where: string;
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

/**
 * Reads answers in any of the three layouts (detected per row: `sources` → native,
 * `actual_answer` → ResearchQA, `row_id` + `citations` → run row), from JSONL or from a JSON list
 * (the published ResearchQA results file). Bad rows, failed run rows and duplicate ids are returned
 * as problems with their line or item, never thrown; a list that does not parse is one problem.
 */
export function readFaithfulnessInputs(text: string): {
  inputs: FaithfulnessInput[];
  problems: InputProblem[];
} {
  const inputs: FaithfulnessInput[] = [];
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  const add = (line: number, where: string, value: unknown) => {
    const read = readRow(value);
    if ('problem' in read) problems.push({ line, where, problem: read.problem });
    else if (seen.has(read.id))
      problems.push({ line, where, problem: `duplicate answer id ${quoteValue(read.id)}` });
    else {
      seen.add(read.id);
      inputs.push(read);
    }
  };
  if (text.trimStart().startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch (error) {
      const problem = `starts like a JSON list but does not parse (${(error as Error).message})`;
      problems.push({ line: 1, where: 'line 1', problem });
      return { inputs, problems };
    }
    for (const [i, value] of (list as unknown[]).entries()) add(i + 1, `item ${i + 1}`, value);
    return { inputs, problems };
  }
  // A citegeist run file starts with its manifest record: not an answer.
  for (const entry of parseJsonl(text).filter((e, i) => !(i === 0 && e.ok && isManifestRecord(e.value)))) {
    if (entry.ok) add(entry.line, `line ${entry.line}`, entry.value);
    else {
      const problem = `not JSON (${entry.error}): ${quoteValue(entry.text)}`;
      problems.push({ line: entry.line, where: `line ${entry.line}`, problem });
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
      ...withEvidence(r.data.actual_answer, cites),
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
    ...withEvidence(r.data.answer, r.data.citations),
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

/**
 * The answer without its `---EVIDENCE---` block (ResearchQA citation contract), and its sources: the
 * row's citations, or, when the row has none, the quotes parsed from the block itself.
 */
function withEvidence(raw: string, citations: { key: string; quote: string }[]) {
  const parsed = parseEvidenceReply(raw);
  const answer = parsed.hasEvidenceBlock ? parsed.answer : raw.trim();
  return { answer, sources: toSources(citations.length > 0 ? citations : parsed.citations) };
}
