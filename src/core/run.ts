import { z } from 'zod';

/** One citation an answer makes: its marker key and the quote it claims is verbatim. */
export const CitationSchema = z.object({
  key: z.string(),
  quote: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const UsageSchema = z.object({
  input_tokens: z.number().int().nonnegative().default(0),
  output_tokens: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof UsageSchema>;

/**
 * One answered row of a run. `error` is set (and `answer` may be empty) when the row failed; a
 * failed row is kept so that counts stay honest and a resumed run can retry it.
 */
export const RunRowSchema = z.object({
  row_id: z.string().min(1),
  model: z.string(),
  answer: z.string().default(''),
  citations: z.array(CitationSchema).default([]),
  /** false when the run used `--baseline` (no citation contract): citation metrics do not apply. */
  contract: z.boolean().default(true),
  context_mode: z.enum(['full', 'retrieval', 'none']).optional(),
  latency_ms: z.number().nonnegative().nullable().default(null),
  usage: UsageSchema.nullable().default(null),
  cost_usd: z.number().nonnegative().nullable().default(null),
  retries: z.number().int().nonnegative().default(0),
  /** true when the reply came from the response cache: it counts as answered, but its latency and
   *  cost say nothing about the model and are left out of latency and cost figures. */
  cached: z.boolean().default(false),
  error: z.string().nullable().default(null),
  raw: z.string().optional(),
});
export type RunRow = z.infer<typeof RunRowSchema>;
export type RunRowInput = z.input<typeof RunRowSchema>;

/**
 * A run row known by the fields every grades row records, read whole on demand: what a large run
 * is graded from without holding every quote (see `indexRun`).
 */
export interface RunRowRef
  extends Pick<RunRow, 'row_id' | 'model' | 'contract' | 'latency_ms' | 'cost_usd' | 'cached' | 'error'> {
  /** How many citations the row has. */
  readonly citationCount: number;
  /** The whole row (read from its file again). */
  load(): RunRow;
}

/** How many citations a run row (or a reference to one) has. */
export function citationCount(run: RunRow | RunRowRef): number {
  return 'citationCount' in run ? run.citationCount : run.citations.length;
}
