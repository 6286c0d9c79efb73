import type { MetricDefinition } from '../researchqa/metric-registry.js';

/** The figures `grade faithfulness` reports, for the CLI, docs and reports. */
export const VETSCORE_METRICS: readonly MetricDefinition[] = [
  {
    id: 'score',
    label: 'Risk-weighted faithfulness',
    description:
      '1 − Σ w^p (1 − v) / Σ w^p over the scored claims of an answer: the share of total harm potential that the cited excerpts support. No claims → not applicable; failed judgments are left out and reported as coverage.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §3.4 (p = 2.426; p = 0 is supported-claim precision)',
    kind: 'judge',
  },
  {
    id: 'penalty',
    label: 'Segment penalty',
    description:
      'P_s = Σ_s w^p (1 − v) / Σ_s w^p over the scored claims of one segment; null without claims.',
    higherIsBetter: false,
    range: [0, 1],
    reference: 'METHODS §3.4',
    kind: 'judge',
  },
  {
    id: 'coverage',
    label: 'Claim coverage',
    description:
      'Scored claims / (all claims + segments whose decomposition failed): a claim whose verification or harm judgment failed is not scored, and a segment that could not be decomposed counts as one claim not scored.',
    higherIsBetter: true,
    range: [0, 1],
    reference: 'METHODS §1.3 (tri-state scores)',
    kind: 'judge',
  },
];
