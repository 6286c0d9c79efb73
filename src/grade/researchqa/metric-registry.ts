/** A metric's definition: the CLI, docs and report read these instead of repeating them. */
export interface MetricDefinition {
  /** The published field name in grades rows. */
  id: string;
  label: string;
  description: string;
  higherIsBetter: boolean;
  /** Value range (inclusive). */
  range: [number, number];
  /** The reference the implementation must match. */
  reference: string;
  /** deterministic: pure text computation; model: needs an embedding model's vectors; judge: an LLM. */
  kind: 'deterministic' | 'model' | 'judge';
}

export const RESEARCHQA_METRICS: readonly MetricDefinition[] = [
  {
    id: 'citation_precision',
    label: 'Citation precision',
    description:
      'Fraction of the model quotes that match some alternative of some evidence group. No quotes → 1; quotes but no alternatives → 0.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §2.4; ResearchQA harness (difflib ratio ≥ 0.5 in researchqa match mode)',
    kind: 'deterministic',
  },
  {
    id: 'section_coverage',
    label: 'Section coverage',
    description:
      'Fraction of evidence groups with at least one alternative matched by some quote (AND across groups, OR within). No groups → 1.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §2.4; ResearchQA harness',
    kind: 'deterministic',
  },
  {
    id: 'citation_accuracy',
    label: 'Citation accuracy',
    description:
      'Fraction of the model quotes that pass the PDF-aware quote matcher against the paper text. No quotes → 1.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §1.2 and §2.4 (quote matcher rules exact, prefix, no-space, no-space-prefix)',
    kind: 'deterministic',
  },
  {
    id: 'citation_accuracy_strict',
    label: 'Citation accuracy (strict)',
    description:
      'Fraction of the model quotes the strict quote matcher finds whole in the paper text (METHODS §1.2 strict mode: exact, no-space, gapped): no prefix rules, so a quote whose text after the first 80 characters was changed does not count, but a quote interrupted in the paper only by PDF furniture (a page header, a citation marker, a line-break hyphen) does. No quotes → 1.',
    higherIsBetter: true,
    range: [0, 1],
    reference:
      'METHODS §1.2 strict mode (rules exact, no-space, gapped); reported beside the published citation accuracy',
    kind: 'deterministic',
  },
  {
    id: 'refusal_correctness',
    label: 'Refusal correctness',
    description:
      'Adversarial rows expecting a refusal only: 1 if the answer cites nothing or every quote passes the quote matcher, else 0.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §2.4',
    kind: 'deterministic',
  },
  {
    id: 'factual_accuracy',
    label: 'Factual accuracy',
    description:
      'Anchored 1–5 rubric: 5 every claim consistent with the expected answer … 1 the core claim contradicts it.',
    higherIsBetter: true,
    range: [1, 5],
    reference: 'METHODS §2.5 (anchored rubric judge)',
    kind: 'judge',
  },
  {
    id: 'completeness',
    label: 'Completeness',
    description: 'Anchored 1–5 rubric: 5 every point addressed … 1 the core point missing.',
    higherIsBetter: true,
    range: [1, 5],
    reference: 'METHODS §2.5 (anchored rubric judge)',
    kind: 'judge',
  },
];

export type ResearchqaMetricId =
  | 'citation_precision'
  | 'section_coverage'
  | 'citation_accuracy'
  | 'citation_accuracy_strict'
  | 'refusal_correctness'
  | 'factual_accuracy'
  | 'completeness';

export const METRIC_IDS = RESEARCHQA_METRICS.map((m) => m.id as ResearchqaMetricId);

/**
 * Free-text answer metrics against reference answers (`citegeist qa-eval`, RECIPER's downstream
 * test). Each value is an F-measure in [0, 1]; precision and recall are reported beside it.
 * rouge3 … rouge9 are accepted too (same definition as rouge1/rouge2 with longer n-grams).
 */
export const QA_METRICS: readonly MetricDefinition[] = [
  {
    id: 'rouge1',
    label: 'ROUGE-1',
    description:
      'Unigram overlap F (clipped counts), best over the references; tokens lower-cased [a-z0-9]+, optionally Porter-stemmed (--stemmer).',
    higherIsBetter: true,
    range: [0, 1],
    reference:
      "Google rouge-score 0.1.2 (rouge_scorer.py _score_ngrams, score_multi); equals ROUGE-1.5.5 on the package's test files",
    kind: 'deterministic',
  },
  {
    id: 'rouge2',
    label: 'ROUGE-2',
    description: 'Bigram overlap F, best over the references.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'Google rouge-score 0.1.2 (rouge_scorer.py _score_ngrams, score_multi)',
    kind: 'deterministic',
  },
  {
    id: 'rougeL',
    label: 'ROUGE-L',
    description: 'Longest-common-subsequence F over the whole answer, best over the references.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'Google rouge-score 0.1.2 (rouge_scorer.py _score_lcs, score_multi)',
    kind: 'deterministic',
  },
  {
    id: 'rougeLsum',
    label: 'ROUGE-Lsum',
    description:
      'Summary-level LCS F: each line is a sentence; union LCS per reference sentence without double counting; best over the references.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'Google rouge-score 0.1.2 (rouge_scorer.py _summary_level_lcs); Lin (2004) §3.2',
    kind: 'deterministic',
  },
  {
    id: 'bertscore',
    label: 'BERTScore-F1',
    description:
      'Greedy cosine matching of contextual token vectors (P over answer tokens, R over reference tokens, optional idf), element-wise max over the references, optional baseline rescaling.',
    higherIsBetter: true,
    range: [-1, 1],
    reference:
      'bert_score (Tiiiger/bert_score score.py, utils.py greedy_cos_idf, get_idf_dict, model2layers)',
    kind: 'model',
  },
];

/** A ResearchQA metric's label for tables (its id when it is not one of ours). */
export function metricLabel(id: string): string {
  return RESEARCHQA_METRICS.find((m) => m.id === id)?.label ?? id;
}
