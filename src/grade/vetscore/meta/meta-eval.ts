import {
  bootstrapPairedCI,
  krippendorffAlpha,
  type MeasurementLevel,
  spearman,
} from '../../../stats/index.js';
import { DEFAULT_HARM_EXPONENT } from '../aggregate.js';
import type { AnswerGrade } from '../grade-answer.js';
import { poolAgreement, type RepeatAgreement } from '../repeats.js';
import { type AlignedClaim, alignClaims } from './align.js';
import type { Annotation } from './annotations.js';
import { type RunPairConsistency, runConsistency } from './consistency.js';
import type { HarmAggregator } from './harm-aggregate.js';
import { pcmHarm } from './pcm-harm.js';

export interface CorrelationWithCi {
  n: number;
  spearman: number | null;
  lower: number | null;
  upper: number | null;
}

export interface MetaEvalReport {
  alignment: {
    annotators: string[];
    matched_claims: number;
    matched_segments: number;
    human_only: number;
    human_only_examples: { answer: string; segment: number; claim: number }[];
    auto_only: number;
  };
  /** Judge vs human at segment level over matched claims (first --auto run). */
  segment_spearman: { verification: CorrelationWithCi; harm: CorrelationWithCi; combined: CorrelationWithCi };
  alpha: {
    verification_nominal: { humans: number | null; humans_and_judge: number | null };
    harm_ordinal: { humans: number | null; humans_and_judge: number | null };
    harm_interval: { humans: number | null; humans_and_judge: number | null };
  };
  human_harm: { method: string; details?: unknown };
  consistency: {
    runs: number;
    pairs: RunPairConsistency[];
    /** Agreement of the judges' repeats inside each run (`grade faithfulness --repeats K`), pooled over answers. */
    repeats: { run: number; k: number; verification: RepeatAgreement; harm: RepeatAgreement }[];
  };
  p: number;
}

/** `1 − Σ w^p (1 − v) / Σ w^p` for real v ∈ [0, 1] and w > 0 (riskWeightedScore generalised to mean ratings). */
export function weightedSupport(claims: { v: number; w: number }[], p: number): number | null {
  let total = 0;
  let bad = 0;
  for (const { v, w } of claims) {
    total += w ** p;
    bad += w ** p * (1 - v);
  }
  return total === 0 ? null : 1 - bad / total;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * METHODS §3.6: judge vs experts. Segment-level Spearman (verification = support rate, harm = mean
 * harm, combined = risk-weighted segment score) with paired bootstrap CIs; Krippendorff's α among
 * annotators and with the judge as one more rater; run-to-run consistency across --auto runs.
 */
export function metaEvaluateFaithfulness(
  runs: AnswerGrade[][],
  annotations: Annotation[],
  options: { p?: number; harm?: HarmAggregator; iterations?: number; seed?: number } = {},
): MetaEvalReport {
  const p = options.p ?? DEFAULT_HARM_EXPONENT;
  const alignment = alignClaims(runs, annotations);
  const humanHarm = (options.harm ?? pcmHarm)(alignment.claims, alignment.annotators);
  const matched = alignment.claims.filter((c) => c.auto[0] != null && c.human.size > 0);
  const segments = new Map<string, AlignedClaim[]>();
  for (const c of matched) {
    const key = `${c.answer}\u0000${c.segment}`;
    segments.set(key, [...(segments.get(key) ?? []), c]);
  }
  const judge = { verification: [] as number[], harm: [] as number[], combined: [] as number[] };
  const human = {
    verification: [] as (number | null)[],
    harm: [] as (number | null)[],
    combined: [] as (number | null)[],
  };
  for (const claims of segments.values()) {
    const auto = claims.map((c) => c.auto[0]!);
    judge.verification.push(mean(auto.map((a) => a.v))!);
    judge.harm.push(mean(auto.map((a) => a.w))!);
    judge.combined.push(weightedSupport(auto, p)!);
    const hv = claims.map((c) =>
      mean([...c.human.values()].flatMap((h) => (h.verified === null ? [] : [h.verified]))),
    );
    const hw = claims.map((c) => humanHarm.perClaim.get(c.key) ?? null);
    human.verification.push(mean(hv.flatMap((v) => (v === null ? [] : [v]))));
    human.harm.push(mean(hw.flatMap((w) => (w === null ? [] : [w]))));
    const both = claims.flatMap((_, i) => (hv[i] != null && hw[i] != null ? [{ v: hv[i]!, w: hw[i]! }] : []));
    human.combined.push(both.length === claims.length ? weightedSupport(both, p) : null);
  }
  const corr = (x: number[], y: (number | null)[]) =>
    correlate(x, y, options.iterations ?? 2000, options.seed ?? 0);
  return {
    alignment: {
      annotators: alignment.annotators,
      matched_claims: matched.length,
      matched_segments: segments.size,
      human_only: alignment.humanOnly.length,
      human_only_examples: alignment.humanOnly.slice(0, 20),
      auto_only: alignment.autoOnly,
    },
    segment_spearman: {
      verification: corr(judge.verification, human.verification),
      harm: corr(judge.harm, human.harm),
      combined: corr(judge.combined, human.combined),
    },
    alpha: {
      verification_nominal: alphas(alignment, 'verification', 'nominal'),
      harm_ordinal: alphas(alignment, 'harm', 'ordinal'),
      harm_interval: alphas(alignment, 'harm', 'interval'),
    },
    human_harm:
      humanHarm.details === undefined
        ? { method: humanHarm.method }
        : { method: humanHarm.method, details: humanHarm.details },
    consistency: {
      runs: runs.length,
      pairs: runConsistency(alignment.claims, runs.length, (c) => weightedSupport(c, p)),
      repeats: runs.flatMap((grades, run) => {
        const withRepeats = grades.filter((g) => g.agreement !== undefined && g.repeats > 1);
        if (withRepeats.length === 0) return [];
        return [
          {
            run,
            k: Math.max(...withRepeats.map((g) => g.repeats)),
            verification: poolAgreement(withRepeats.map((g) => g.agreement!.verification)),
            harm: poolAgreement(withRepeats.map((g) => g.agreement!.harm)),
          },
        ];
      }),
    },
    p,
  };
}

function correlate(x: number[], y: (number | null)[], iterations: number, seed: number): CorrelationWithCi {
  const xs: number[] = [];
  const ys: number[] = [];
  y.forEach((v, i) => {
    if (v !== null && x[i] !== undefined) {
      xs.push(x[i]!);
      ys.push(v);
    }
  });
  if (xs.length < 3)
    return { n: xs.length, spearman: xs.length < 2 ? null : spearman(xs, ys), lower: null, upper: null };
  const ci = bootstrapPairedCI(xs, ys, spearman, { iterations, seed });
  return { n: xs.length, spearman: ci.estimate, lower: ci.lower, upper: ci.upper };
}

/** α over the annotated claims: annotators only, and with the judge (first run) as one more rater. */
function alphas(a: ReturnType<typeof alignClaims>, what: 'verification' | 'harm', level: MeasurementLevel) {
  const units = a.claims.filter((c) => c.human.size > 0);
  const rows = a.annotators.map((name) =>
    units.map((c) => {
      const h = c.human.get(name);
      return (what === 'verification' ? h?.verified : h?.harm) ?? null;
    }),
  );
  const judgeRow = units.map((c) => {
    const j = c.auto[0];
    return j ? (what === 'verification' ? j.v : j.w) : null;
  });
  const safe = (data: (number | null)[][]) =>
    units.length === 0 || data.length < 2 ? null : krippendorffAlpha(data, level);
  return { humans: safe(rows), humans_and_judge: safe([...rows, judgeRow]) };
}
