import { type DatasetRow, DatasetRowSchema, type EvidenceGroup } from '../../core/index.js';
import type { ChatMessage, LlmProvider } from '../../llm/index.js';
import { matchQuote, type PreparedPaper, preparePaper } from '../../text/index.js';
import { GENERATION_PROMPT, type Generation, GenerationSchema, RepairSchema } from './generation-schema.js';

export type DropReason = 'quote-not-verbatim' | 'generation-failed' | 'no-paper-text';

export interface PaperGeneration {
  paperId: string;
  rows: DatasetRow[];
  /** Rows dropped, by reason (a failed generation counts as one). */
  dropped: Partial<Record<DropReason, number>>;
  /** Rows fixed by the repair retry. */
  repaired: number;
  error: string | null;
  costUsd: number | null;
  latencyMs: number;
}

export interface GenerateOptions {
  domain?: string;
  /** Paper characters sent at most (default: 4 × (context window − 6,000 tokens)). */
  maxPaperChars?: number;
  signal?: AbortSignal;
}

/** Rows as proposed, with ids per METHODS §2.2 (`{paperId}_chunk{i}_lookup`, …). */
export function rowsFromGeneration(paperId: string, g: Generation, domain: string): DatasetRow[] {
  const rows: DatasetRow[] = [];
  const base = { paper_id: paperId, domain };
  const groups = (ev: EvidenceGroup[]) =>
    ev.map((e) => ({ section_label: e.section_label, alternatives: [...e.alternatives] }));
  g.chunks.forEach((c, i) => {
    rows.push(
      DatasetRowSchema.parse({
        ...base,
        row_id: `${paperId}_chunk${i}_lookup`,
        question_type: 'lookup',
        question: c.lookup.question,
        expected_answer: c.lookup.expected_answer,
        expected_references: groups(c.lookup.evidence),
        required_sections: [c.section_label],
      }),
    );
    rows.push(
      DatasetRowSchema.parse({
        ...base,
        row_id: `${paperId}_chunk${i}_comprehension`,
        question_type: 'comprehension',
        question: c.comprehension.question,
        expected_answer: c.comprehension.expected_answer,
        expected_references: groups(c.comprehension.evidence),
        judge_rubric: rubricString(c.comprehension.rubric),
        required_sections: [c.section_label],
      }),
    );
  });
  g.multi_hop.forEach((m, j) => {
    rows.push(
      DatasetRowSchema.parse({
        ...base,
        row_id: `${paperId}_multihop${j}`,
        question_type: 'multi_hop',
        question: m.question,
        expected_answer: m.expected_answer,
        expected_references: groups(m.evidence),
        judge_rubric: rubricString(m.rubric),
        required_sections: m.evidence.map((e) => e.section_label),
        reasoning_chain: m.reasoning_chain,
      }),
    );
  });
  g.adversarial.forEach((a, j) => {
    rows.push(
      DatasetRowSchema.parse({
        ...base,
        row_id: `${paperId}_adversarial${j}`,
        question_type: 'adversarial',
        question: a.question,
        expected_answer: a.expected_answer,
        expected_references: groups(a.evidence),
        false_premise: a.false_premise,
        expected_refusal: a.expected_refusal,
      }),
    );
  });
  return rows;
}

/**
 * The rubric as the published generator writes it: one string of criteria (generate_dataset.py,
 * `judge_rubric: str`), here numbered one per line.
 */
function rubricString(items: readonly string[]): string {
  return items.map((x, i) => `${i + 1}. ${x}`).join('\n');
}

interface FailedQuote {
  id: string;
  rowIndex: number;
  group: number;
  alt: number;
  quote: string;
}

/** Every quote of `rows` that fails the STRICT quote matcher. */
export function failingQuotes(rows: readonly DatasetRow[], paper: PreparedPaper): FailedQuote[] {
  const out: FailedQuote[] = [];
  for (const [r, row] of rows.entries()) {
    for (const [gi, g] of row.expected_references.entries()) {
      for (const [ai, quote] of g.alternatives.entries()) {
        if (!matchQuote(paper, quote, { mode: 'strict', nearest: false }).matched) {
          out.push({ id: `q${out.length + 1}`, rowIndex: r, group: gi, alt: ai, quote });
        }
      }
    }
  }
  return out;
}

/** Paper characters sent at most: the option, else 4 × (context window − 6,000 tokens), at least 8,000. */
export function maxPaperChars(
  llm: Pick<LlmProvider, 'contextWindow'>,
  options: GenerateOptions = {},
): number {
  return options.maxPaperChars ?? Math.max(8000, ((llm.contextWindow ?? 32_000) - 6000) * 4);
}

/** The first request of a paper's generation (the paper cut to `maxChars`). */
export function generationMessages(paperId: string, text: string, maxChars: number): ChatMessage[] {
  const paperText = text.length > maxChars ? text.slice(0, maxChars) : text;
  return [
    { role: 'system', content: GENERATION_PROMPT },
    { role: 'user', content: `Paper ${paperId}:\n<<<PAPER\n${paperText}\nPAPER>>>` },
  ];
}

/**
 * Generates the ResearchQA rows of one paper (METHODS §2.2): structured output validated by a
 * schema; every quote verified with the strict quote matcher; one repair retry that sends the
 * failing quotes back; rows that still fail are dropped and counted. Never throws on model output.
 */
export async function generatePaperQuestions(
  llm: LlmProvider,
  paperId: string,
  text: string | null,
  options: GenerateOptions = {},
): Promise<PaperGeneration> {
  const out: PaperGeneration = {
    paperId,
    rows: [],
    dropped: {},
    repaired: 0,
    error: null,
    costUsd: null,
    latencyMs: 0,
  };
  if (!text) {
    out.dropped['no-paper-text'] = 1;
    out.error = `the text of paper ${paperId} is not available`;
    return out;
  }
  const messages = generationMessages(paperId, text, maxPaperChars(llm, options));
  const signal = options.signal ? { signal: options.signal } : {};
  const result = await llm.generateObject({
    messages,
    schema: GenerationSchema,
    schemaName: 'researchqa_rows',
    temperature: 0.2,
    ...signal,
  });
  out.costUsd = result.costUsd;
  out.latencyMs = result.latencyMs;
  if (!result.ok) {
    out.dropped['generation-failed'] = 1;
    out.error = result.reason;
    return out;
  }
  const rows = rowsFromGeneration(paperId, result.value, options.domain ?? '');
  const prepared = preparePaper(text);
  let failing = failingQuotes(rows, prepared);
  if (failing.length > 0) {
    const before = new Set(failing.map((f) => f.rowIndex));
    const list = failing
      .map(
        (f) =>
          `${f.id} (row ${rows[f.rowIndex]?.row_id}, section "${rows[f.rowIndex]?.expected_references[f.group]?.section_label}"): ${JSON.stringify(f.quote)}`,
      )
      .join('\n');
    const repair = await llm.generateObject({
      messages: [
        ...messages,
        { role: 'assistant', content: result.raw },
        {
          role: 'user',
          content: `These quotes are not verbatim in the paper. For each id, give the passage copied character for character from the paper that you meant, or "" if there is none:\n${list}`,
        },
      ],
      schema: RepairSchema,
      schemaName: 'quote_repairs',
      temperature: 0,
      ...signal,
    });
    out.latencyMs += repair.latencyMs;
    if (repair.costUsd !== null) out.costUsd = (out.costUsd ?? 0) + repair.costUsd;
    if (repair.ok) applyFixes(rows, failing, repair.value.fixes);
    failing = failingQuotes(rows, prepared);
    const still = new Set(failing.map((f) => f.rowIndex));
    out.repaired = [...before].filter((r) => !still.has(r)).length;
    out.dropped['quote-not-verbatim'] = still.size;
    out.rows = rows.filter((_, i) => !still.has(i));
  } else {
    out.rows = rows;
  }
  return out;
}

function applyFixes(
  rows: DatasetRow[],
  failing: FailedQuote[],
  fixes: { id: string; quote: string }[],
): void {
  const byId = new Map(fixes.map((f) => [f.id, f.quote]));
  for (const f of failing) {
    const fix = byId.get(f.id);
    const group = rows[f.rowIndex]?.expected_references[f.group];
    if (fix === undefined || !group) continue;
    group.alternatives[f.alt] = fix;
  }
  // An alternative dropped with "" goes away; a group left with none makes its row fail (kept as is).
  for (const row of rows) {
    for (const g of row.expected_references) {
      const kept = g.alternatives.filter((a) => a.trim() !== '');
      if (kept.length > 0) g.alternatives = kept;
    }
  }
}
