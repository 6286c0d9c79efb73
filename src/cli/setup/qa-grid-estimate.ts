import type { AnswerEstimate } from '../../answer/index.js';
import { renderTable } from '../../text/index.js';

/** One cell of `qa-grid --dry-run`: a generator over one retriever's context (`estimateRunFile`). */
export interface GridEstimateCell extends AnswerEstimate {
  mode: string;
  model: string;
  label: string;
  /** Rows kept from an earlier run of the cell. */
  kept: number;
  /** False for the extractive answerer (no model calls). */
  callsModel: boolean;
}

export interface GridEstimate {
  dry_run: true;
  questions: number;
  cells: GridEstimateCell[];
  skipped: { mode: string; reason: string }[];
  /** Sums over the cells; costUsd is null when a generator has no price. */
  totals: {
    rows: number;
    kept: number;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number | null;
  };
}

export function gridEstimate(
  questions: number,
  cells: GridEstimateCell[],
  skipped: { mode: string; reason: string }[],
): GridEstimate {
  const sum = (f: (c: GridEstimateCell) => number) => cells.reduce((s, c) => s + f(c), 0);
  const unpriced = cells.some((c) => c.costUsd === null);
  return {
    dry_run: true,
    questions,
    cells,
    skipped,
    totals: {
      rows: sum((c) => c.rows),
      kept: sum((c) => c.kept),
      calls: sum((c) => c.calls),
      inputTokens: sum((c) => c.inputTokens),
      outputTokens: sum((c) => c.outputTokens),
      costUsd: unpriced ? null : sum((c) => c.costUsd ?? 0),
    },
  };
}

const cost = (c: Pick<GridEstimateCell, 'costUsd'>, callsModel = true) =>
  !callsModel ? 'no model' : c.costUsd === null ? 'no price' : `at most $${c.costUsd.toFixed(4)}`;

/** The dry run as a table: per generator × retriever, what is left to answer and its calls, tokens and cost; totals last. */
export function renderGridEstimate(e: GridEstimate): string {
  const retrievers = new Set(e.cells.map((c) => c.mode)).size;
  const generators = new Set(e.cells.map((c) => c.model)).size;
  const columns = [
    { header: 'model' },
    { header: 'retriever' },
    { header: 'to answer', align: 'right' as const },
    { header: 'kept', align: 'right' as const },
    { header: 'calls', align: 'right' as const },
    { header: 'input tokens (~)', align: 'right' as const },
    { header: 'output tokens (max)', align: 'right' as const },
    { header: 'cost' },
  ];
  const row = (
    model: string,
    mode: string,
    c: Omit<GridEstimate['totals'], 'costUsd'> & { costUsd: number | null },
    callsModel = true,
  ) => [
    model,
    mode,
    String(c.rows),
    String(c.kept),
    String(c.calls),
    String(c.inputTokens),
    String(c.outputTokens),
    cost(c, callsModel),
  ];
  const rows = [...e.cells.map((c) => row(c.model, c.mode, c, c.callsModel)), row('total', '', e.totals)];
  const unpriced = [...new Set(e.cells.filter((c) => c.costUsd === null).map((c) => c.model))];
  const lines = [
    `dry run, nothing called or written: ${e.questions} questions × ${retrievers} retriever(s) × ${generators} generator(s)`,
    renderTable(columns, rows),
    ...e.skipped.map((s) => `skipped ${s.mode}: ${s.reason}`),
    unpriced.length > 0
      ? `no price for ${unpriced.join(', ')}: add it to "prices" in citegeist.config.json for a total`
      : '',
    'input tokens by the chars/4 rule over the very prompts a run sends; output tokens at the cap of each call, so costs are upper bounds',
  ];
  return `${lines.filter(Boolean).join('\n')}\n`;
}
