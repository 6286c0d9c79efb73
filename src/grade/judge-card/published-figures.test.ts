import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { missingSharedData, sharedDataPath, skipWithoutSharedData } from '../../testing/shared-data.js';
import { reproduceCrowdragLlmAgreement } from './crowdrag-llm-agreement.js';
import { reproduceRagcheckerMetaEval } from './ragchecker-meta-eval.js';

/** The same figures recomputed independently in Python (`__fixtures__/published-figures.py`). */
const python = JSON.parse(
  readFileSync(new URL('./__fixtures__/published-figures.json', import.meta.url), 'utf8'),
);
const NEEDS = [
  ['human-labels', 'ragchecker', 'baseline_ragchecker.json'],
  ['human-labels', 'crowdrag25', 'artifacts__llm_ratings.jsonl.gz'],
];
const missing = missingSharedData(...NEEDS);
const dir = (name: string) => sharedDataPath('human-labels', name);

describe(`published judge–human agreement, recomputed from the released files ${missing ?? ''}`, () => {
  beforeEach(skipWithoutSharedData(...NEEDS));
  /**
   * Ru et al., "RAGChecker: A Fine-grained Framework for Diagnosing Retrieval-Augmented Generation",
   * NeurIPS 2024 Datasets & Benchmarks (arXiv 2408.08067), Table 2, rows "RAGChecker" and "Human"
   * (Pearson / Spearman × 100): correctness 49.66 / 46.95, completeness 60.67 / 58.11,
   * overall 61.93 / 60.90; Human 63.67 / 59.19, 71.91 / 68.36, 70.09 / 68.89 (the output of the
   * released meta_eval.py; the paper's table text could not be re-read here to check each cell).
   */
  it('RAGChecker meta-evaluation (Table 2): Pearson and Spearman × 100, to 2 decimals, and the annotator sanity row', () => {
    const rows = reproduceRagcheckerMetaEval(dir('ragchecker'));
    expect(
      rows.map((r) => [r.dimension, r.pearson, r.spearman, r.human_pearson, r.human_spearman, r.pairs]),
    ).toEqual([
      ['correctness', 49.66, 46.95, 63.67, 59.19, 560],
      ['completeness', 60.67, 58.11, 71.91, 68.36, 560],
      ['overall', 61.93, 60.9, 70.09, 68.89, 560],
    ]);
    for (const r of rows) {
      expect(python.ragchecker[r.dimension]).toEqual({
        pearson: r.pearson,
        spearman: r.spearman,
        human_pearson: r.human_pearson,
        human_spearman: r.human_spearman,
      });
    }
  });

  /**
   * Gienapp et al., "The Viability of Crowdsourcing for RAG Evaluation", SIGIR 2025 (arXiv
   * 2504.15689); procedure: notebooks/9-llm-as-judge.ipynb, webis-de/sigir25-rag-crowdsourcing
   * @ 03ec5b4 (ordinal α over pairs judged in both orders, LLM's two judgments + crowd gold).
   * The paper's printed table could not be read here; these figures are the authors' procedure on
   * their released files, recomputed independently in Python to 1e-12.
   */
  it('CrowdRAG-25: LLM–crowd ordinal α per dimension (labels turned round with the pair, as the notebook intends)', () => {
    const rows = reproduceCrowdragLlmAgreement(dir('crowdrag25'), { flipLabels: true });
    for (const r of rows) {
      const want = python.crowdrag_flipped[r.dimension];
      expect(r.llm_combined_with_crowd).toBeCloseTo(want.llm_combined_with_crowd, 12);
      expect(r.llm_individual_with_crowd).toBeCloseTo(want.llm_individual_with_crowd, 12);
      expect(r.llm_combined).toBeCloseTo(want.llm_combined, 12);
      expect(r.llm_individual).toBeCloseTo(want.llm_individual, 12);
    }
    // to 2 decimals (the notebook's .round(2)): LLM (combined prompt) with the crowd
    expect(rows.map((r) => Number(r.llm_combined_with_crowd!.toFixed(2)))).toEqual([
      0.37, 0.2, 0.32, 0.39, 0.33, 0.36, 0.3,
    ]);
    expect(rows.every((r) => r.units === 754 / 2)).toBe(true);
  });

  it('CrowdRAG-25: the notebook as released (labels not turned round) gives negative α, as the Python recomputation does', () => {
    const rows = reproduceCrowdragLlmAgreement(dir('crowdrag25'), { flipLabels: false });
    for (const r of rows) {
      expect(r.llm_combined_with_crowd).toBeCloseTo(
        python.crowdrag_as_released[r.dimension].llm_combined_with_crowd,
        12,
      );
      expect(r.llm_combined_with_crowd!).toBeLessThan(0);
    }
  });
});
