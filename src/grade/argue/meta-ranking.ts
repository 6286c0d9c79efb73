/**
 * Meta-evaluation of a system ranking (METHODS §5 step 7): systems ranked by an automatic metric
 * against a reference ranking (human nuggets or human judgments, as a scores TSV). Spearman ρ and
 * Kendall τ-b (ties handled), each with a percentile bootstrap CI over topics (topics resampled
 * together for every system, so the systems stay paired); the stability of the top systems (how
 * many of the reference's top k the metric also puts in its top k, and τ-b among those k); and the
 * circularity warning when the judge shares a model family with a system under test.
 */
import { CitegeistError } from '../../core/index.js';
import { circularityWarnings } from '../../llm/index.js';
import { bootstrapCI, kendallTauB, rankData, spearman } from '../../stats/index.js';
import type { ScoreRow } from './argue-tsv.js';
import { RunTable } from './score-summary.js';

export interface RankedSystem {
  system: string;
  auto: number;
  reference: number;
  /** 1 = best; tied systems share the average rank. */
  autoRank: number;
  referenceRank: number;
}

export interface CorrelationCi {
  value: number | null;
  lower: number | null;
  upper: number | null;
}

export interface TopKStability {
  k: number;
  /** Share of the reference's top k that the metric also ranks in its top k. */
  overlap: number;
  /** τ-b between the metric and the reference over the reference's top k (null when undefined). */
  kendallTauB: number | null;
}

export interface RankingMetaEval {
  metric: string;
  referenceMetric: string;
  systems: RankedSystem[];
  topics: number;
  spearman: CorrelationCi;
  kendallTauB: CorrelationCi;
  topK: TopKStability[];
  /** Systems in only one of the two score sets (left out). */
  onlyAuto: string[];
  onlyReference: string[];
  circularity: string[];
  iterations: number;
  seed: number;
}

export interface RankingOptions {
  metric: string;
  /** The reference's metric (default: the same). */
  referenceMetric?: string;
  topK?: readonly number[];
  iterations?: number;
  seed?: number;
  /** The judge behind the automatic scores and the model behind each system (run id → model). */
  judge?: string | null;
  systemModels?: ReadonlyMap<string, string>;
}

const descendingRanks = (values: readonly number[]) => rankData(values).map((r) => values.length + 1 - r);

/** Ranks the systems both score sets share and measures how well the automatic ranking agrees. */
export function metaEvaluateRanking(
  auto: readonly ScoreRow[],
  reference: readonly ScoreRow[],
  options: RankingOptions,
): RankingMetaEval {
  const refMetric = options.referenceMetric ?? options.metric;
  const runs = (rows: readonly ScoreRow[]) => [...new Set(rows.map((r) => r.runId))];
  const refRuns = new Set(runs(reference));
  const autoRuns = new Set(runs(auto));
  const systems = [...autoRuns].filter((s) => refRuns.has(s)).sort();
  if (systems.length < 3) {
    throw new CitegeistError(
      'NOTHING_IN_COMMON',
      `Only ${systems.length} system(s) are in both the automatic and the reference scores; a ranking needs at least 3.`,
      'Check that the run ids (first TSV column) match between the files.',
    );
  }
  const autoTables = systems.map((s) => new RunTable(auto, s));
  const refTables = systems.map((s) => new RunTable(reference, s));
  // Topics every system has in both sets: the unit the bootstrap resamples.
  const topics = autoTables[0]!.topics
    .filter((t) => [...autoTables, ...refTables].every((x) => x.topics.includes(t)))
    .sort();
  if (topics.length === 0) {
    throw new CitegeistError(
      'NOTHING_IN_COMMON',
      'No topic is scored for every system in both score sets.',
      'Score the same topics for every system (see --penalize-missing-topics).',
    );
  }
  const scoreOf = (tables: RunTable[], metric: string, sample: readonly string[]) =>
    tables.map((t) => t.over(metric, sample));
  const autoScores = systems.map(
    (_, i) => autoTables[i]!.allValue(options.metric) ?? autoTables[i]!.over(options.metric, topics),
  );
  const refScores = systems.map(
    (_, i) => refTables[i]!.allValue(refMetric) ?? refTables[i]!.over(refMetric, topics),
  );
  const autoRanks = descendingRanks(autoScores);
  const refRanks = descendingRanks(refScores);
  const bootstrap = { iterations: options.iterations ?? 1000, seed: options.seed ?? 42 };
  const indices = topics.map((_, i) => i);
  const correlationCi = (f: (x: readonly number[], y: readonly number[]) => number | null): CorrelationCi => {
    const ci = bootstrapCI(
      indices,
      (sample) => {
        const picked = sample.map((i) => topics[i]!);
        return f(scoreOf(autoTables, options.metric, picked), scoreOf(refTables, refMetric, picked));
      },
      bootstrap,
    );
    return { value: f(autoScores, refScores), lower: ci.lower, upper: ci.upper };
  };
  const order = systems.map((_, i) => i).sort((a, b) => refRanks[a]! - refRanks[b]!);
  const topK = (options.topK ?? [3, 5, 10])
    .filter((k) => k >= 2 && k < systems.length)
    .map((k) => {
      const refTop = order.slice(0, k);
      const autoTop = new Set(
        systems
          .map((_, i) => i)
          .sort((a, b) => autoRanks[a]! - autoRanks[b]!)
          .slice(0, k),
      );
      return {
        k,
        overlap: refTop.filter((i) => autoTop.has(i)).length / k,
        kendallTauB: kendallTauB(
          refTop.map((i) => autoScores[i]!),
          refTop.map((i) => refScores[i]!),
        ),
      };
    });
  const systemModels = options.systemModels ?? new Map<string, string>();
  return {
    metric: options.metric,
    referenceMetric: refMetric,
    systems: systems.map((system, i) => ({
      system,
      auto: autoScores[i]!,
      reference: refScores[i]!,
      autoRank: autoRanks[i]!,
      referenceRank: refRanks[i]!,
    })),
    topics: topics.length,
    spearman: correlationCi(spearman),
    kendallTauB: correlationCi(kendallTauB),
    topK,
    onlyAuto: [...autoRuns].filter((s) => !refRuns.has(s)),
    onlyReference: [...refRuns].filter((s) => !autoRuns.has(s)),
    circularity: options.judge
      ? circularityWarnings(
          [options.judge],
          systems.flatMap((s) => (systemModels.has(s) ? [systemModels.get(s)!] : [])),
        )
      : [],
    iterations: bootstrap.iterations,
    seed: bootstrap.seed,
  };
}
