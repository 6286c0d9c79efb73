import type { DatasetRow } from '../core/index.js';
import { createManifest, defaultLabel, type InputRef, type RunManifest } from '../core/index.js';
import { type CostEstimate, estimateCost, type PriceTable } from '../llm/index.js';
import type { Answerer } from './answerer.js';
import type { AnswerPlanner } from './llm-answerer.js';
import type { PaperContext } from './paper-context.js';

/** Settings a default label leaves out while they have these values. */
const LABEL_DEFAULTS = { context: 'auto', k: 8, contract: true, free_text: false };

/**
 * The manifest of an answer run: the answerer's settings, the dataset and the papers (content
 * hashes), citegeist's version, and a label (`--label`, else the model plus the settings that
 * differ from the defaults, e.g. `openai:gpt-4.1-mini (k=3)`).
 */
export function answerManifest(o: {
  answerer: Pick<Answerer, 'id' | 'settings'>;
  /** How passages are ranked within a paper when the answerer's own source does not say (the CLI's `openPaperRetrieval`). */
  retriever?: string;
  label?: string | undefined;
  dataset: InputRef;
  papers: InputRef;
  version: string;
}): RunManifest {
  const settings = {
    ...o.answerer.settings,
    ...(o.retriever && o.answerer.settings.retriever === 'bm25' ? { retriever: o.retriever } : {}),
  };
  return createManifest({
    kind: 'run',
    label: o.label,
    defaultLabel: defaultLabel(o.answerer.id, settings, LABEL_DEFAULTS),
    settings,
    inputs: { dataset: o.dataset, papers: o.papers },
    version: o.version,
  });
}

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
