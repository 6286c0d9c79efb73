import type { RunManifest } from '../../core/index.js';
import { inspectRunFile } from '../../io/index.js';
import { type CostEstimate, estimateCost, type LlmProvider, type PriceTable } from '../../llm/index.js';
import { changedPapers, progressFileOptions, progressPath } from './generate-dataset.js';
import { generationMessages, maxPaperChars } from './generate-questions.js';

/** Output tokens assumed per paper: ~14 questions, each with 1–3 groups of 2–3 quotes of 50–200 words. */
export const EXPECTED_GENERATION_TOKENS = 8000;

/** What generating a dataset would cost (`estimateGeneration`). */
export interface GenerationEstimate extends CostEstimate {
  /** Papers left to do, finished in an earlier run, and without text. */
  papers: number;
  kept: number;
  missing: number;
}

/**
 * The dry run of `generateDataset`: the first call of every paper a resume of `out` would leave to
 * do, priced with `EXPECTED_GENERATION_TOKENS` of output each; nothing called or written (a paper
 * with quotes to repair makes one more call).
 */
export async function estimateGeneration(
  llm: Pick<LlmProvider, 'id' | 'contextWindow'>,
  papers: { id: string }[],
  load: (id: string) => Promise<string | null>,
  out: string,
  manifest: RunManifest,
  prices: PriceTable,
): Promise<GenerationEstimate> {
  const changed = await changedPapers(out, manifest, papers, load);
  const finished = new Set(
    inspectRunFile(progressPath(out), progressFileOptions(manifest, changed)).kept.map((r) =>
      String(r.paper_id),
    ),
  );
  const todo = papers.filter((p) => !finished.has(p.id));
  const requests = [];
  let missing = 0;
  for (const paper of todo) {
    const text = await load(paper.id);
    if (text === null) missing++;
    else requests.push({ messages: generationMessages(paper.id, text, maxPaperChars(llm)) });
  }
  const estimate = estimateCost(llm.id, requests, {
    prices,
    expectedOutputTokens: EXPECTED_GENERATION_TOKENS,
  });
  return { papers: todo.length, kept: finished.size, missing, ...estimate };
}
