import type { DatasetRow, RunManifest } from '../core/index.js';
import { type CostEstimate, estimateCost, type PriceTable } from '../llm/index.js';
import type { Answerer } from './answerer.js';
import { inspectRunFileFor } from './harness.js';
import { AnswerPlanner } from './llm-answerer.js';
import type { PaperContext } from './paper-context.js';

/** What `answer --dry-run` reports: the calls the rows left to answer would make, priced. */
export interface AnswerEstimate extends CostEstimate {
  rows: number;
  byContext: { full: number; retrieval: number };
  /** Rows whose paper is missing: they fail without a call. */
  missingPaper: number;
}

/**
 * Prices the calls an LLM answerer would make for `rows`, from the very requests it would send
 * (prompt tokens by the chars/4 rule, output tokens at the request's cap, so cost is an upper bound).
 */
export async function estimateAnswers(
  rows: readonly DatasetRow[],
  answerer: Pick<AnswerPlanner, 'id' | 'request'>,
  papers: (paperId: string) => PaperContext | null,
  prices: PriceTable,
): Promise<AnswerEstimate> {
  const requests = [];
  const byContext = { full: 0, retrieval: 0 };
  let missingPaper = 0;
  for (const row of rows) {
    const planned = await answerer.request({ row, paper: papers(row.paper_id) });
    if (!planned) {
      missingPaper++;
      continue;
    }
    if (planned.mode === 'full') byContext.full++;
    else byContext.retrieval++;
    requests.push(planned.request);
  }
  return { rows: rows.length, byContext, missingPaper, ...estimateCost(answerer.id, requests, { prices }) };
}

/**
 * The `--dry-run` of one run file (`answer`, a cell of `qa-grid`): the rows a resume of `path`
 * would leave to answer (the file is checked read-only, so one of another run is refused as the
 * run would refuse it), priced; the extractive answerer calls no model. Nothing is written.
 */
export async function estimateRunFile(o: {
  rows: readonly DatasetRow[];
  answerer: Pick<Answerer, 'id'> | AnswerPlanner;
  papers: (paperId: string) => PaperContext | null;
  prices: PriceTable;
  path: string;
  manifest: RunManifest;
}): Promise<AnswerEstimate & { kept: number; callsModel: boolean }> {
  const done = new Set(inspectRunFileFor(o.path, o.manifest).kept.map((r) => r.row_id));
  const todo = o.rows.filter((r) => !done.has(r.row_id));
  const kept = o.rows.length - todo.length;
  if (o.answerer instanceof AnswerPlanner) {
    return { kept, callsModel: true, ...(await estimateAnswers(todo, o.answerer, o.papers, o.prices)) };
  }
  const none = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  return {
    kept,
    callsModel: false,
    rows: todo.length,
    byContext: { full: 0, retrieval: 0 },
    missingPaper: 0,
    ...none,
  };
}
