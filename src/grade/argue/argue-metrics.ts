/**
 * Auto-ARGUE's metrics from report counts, with its names, order and arithmetic (checked value by
 * value on hltcoe/argue-viz `assets/example-report.scores.tsv` @ ada21228):
 *
 * - per topic: counts, then `citation_relevance` = relevant/citations, `citation_support` =
 *   supporting/citations, `sentence_support` = correctly cited / sentences with (or requiring)
 *   citations, `nugget_coverage` = correct/nuggets (`_weighted`: importance weights), `f1` =
 *   2·S·C/(S+C) of sentence support and coverage, evaluated in that order;
 * - `all`: counts summed, `character_count_median` / `_max` over topics, `_micro` = ratio of the
 *   sums (`f1_micro` = F1 of micro S and C), `_macro` = NumPy mean of the per-topic values
 *   (`f1_macro` = mean of per-topic F1).
 *
 * A zero denominator gives 0.0 (Auto-ARGUE's published files never show one; 0 is the TREC
 * convention for an empty report, and keeps macro means defined).
 */
import { numpyMean, numpyMedian, numpySum } from '../../python-compat/index.js';
import type { ReportCounts } from './count-report.js';

/** The counts, in Auto-ARGUE's order (the `all` rows' and, after character_count, each topic's). */
const COUNT_METRICS = [
  'sentences',
  'sentences_with_citations_or_requiring_citations',
  'correctly_cited_sentences',
  'nuggets',
  'nuggets_weighted',
  'correct_nuggets',
  'correct_nuggets_weighted',
  'citations',
  'relevant_citations',
  'supporting_citations',
] as const;

/** The ratios, each reported `_micro` and `_macro` in the `all` rows, in Auto-ARGUE's order. */
export const RATIO_METRICS = [
  'citation_relevance',
  'citation_support',
  'sentence_support',
  'nugget_coverage',
  'nugget_coverage_weighted',
  'f1',
  'f1_weighted',
] as const;
export type RatioMetric = (typeof RATIO_METRICS)[number];

/** Per topic: the counts (character_count second, as Auto-ARGUE writes it), then the ratios. */
export const TOPIC_METRICS = [
  'sentences',
  'character_count',
  ...COUNT_METRICS.slice(1),
  ...RATIO_METRICS,
] as const;
export type TopicMetric = (typeof TOPIC_METRICS)[number];

export const ALL_METRICS = [
  ...COUNT_METRICS,
  'character_count_median',
  'character_count_max',
  ...RATIO_METRICS.flatMap((m) => [`${m}_micro`, `${m}_macro`]),
] as readonly string[];

/** What each ratio measures (for --help, the docs and the terminal table). */
export const ARGUE_METRIC_DESCRIPTIONS: Record<RatioMetric, string> = {
  citation_relevance: 'cited documents judged relevant to the request / citations',
  citation_support: 'citations whose document attests the sentence / citations',
  sentence_support: 'sentences whose every citation attests them / sentences with or needing citations',
  nugget_coverage: 'nuggets answered by the report / nuggets in the bank',
  nugget_coverage_weighted: 'importance-weighted nugget coverage',
  f1: 'F1 of sentence support and nugget coverage',
  f1_weighted: 'F1 of sentence support and weighted nugget coverage',
};

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const f1 = (s: number, c: number) => (s + c > 0 ? (2 * s * c) / (s + c) : 0);

/** The per-topic values in TSV order. */
export function topicValues(c: ReportCounts): Record<TopicMetric, number> {
  const sentenceSupport = ratio(c.correctlyCitedSentences, c.sentencesWithCitationsOrRequiring);
  const coverage = ratio(c.correctNuggets, c.nuggets);
  const coverageWeighted = ratio(c.correctNuggetsWeighted, c.nuggetsWeighted);
  return {
    sentences: c.sentences,
    character_count: c.characterCount,
    sentences_with_citations_or_requiring_citations: c.sentencesWithCitationsOrRequiring,
    correctly_cited_sentences: c.correctlyCitedSentences,
    nuggets: c.nuggets,
    nuggets_weighted: c.nuggetsWeighted,
    correct_nuggets: c.correctNuggets,
    correct_nuggets_weighted: c.correctNuggetsWeighted,
    citations: c.citations,
    relevant_citations: c.relevantCitations,
    supporting_citations: c.supportingCitations,
    citation_relevance: ratio(c.relevantCitations, c.citations),
    citation_support: ratio(c.supportingCitations, c.citations),
    sentence_support: sentenceSupport,
    nugget_coverage: coverage,
    nugget_coverage_weighted: coverageWeighted,
    f1: f1(sentenceSupport, coverage),
    f1_weighted: f1(sentenceSupport, coverageWeighted),
  };
}

/** The `all` values of a run from its per-topic values (empty input → every value 0). */
export function allValues(topics: readonly Record<TopicMetric, number>[]): Record<string, number> {
  const column = (m: TopicMetric) => topics.map((t) => t[m]);
  const sum = (m: TopicMetric) => numpySum(column(m));
  const out: Record<string, number> = {};
  for (const m of COUNT_METRICS) out[m] = sum(m);
  const chars = column('character_count');
  out.character_count_median = chars.length ? numpyMedian(chars) : 0;
  out.character_count_max = chars.length ? Math.max(...chars) : 0;
  const micro: Record<RatioMetric, number> = {
    citation_relevance: ratio(sum('relevant_citations'), sum('citations')),
    citation_support: ratio(sum('supporting_citations'), sum('citations')),
    sentence_support: ratio(
      sum('correctly_cited_sentences'),
      sum('sentences_with_citations_or_requiring_citations'),
    ),
    nugget_coverage: ratio(sum('correct_nuggets'), sum('nuggets')),
    nugget_coverage_weighted: ratio(sum('correct_nuggets_weighted'), sum('nuggets_weighted')),
    f1: 0,
    f1_weighted: 0,
  };
  micro.f1 = f1(micro.sentence_support, micro.nugget_coverage);
  micro.f1_weighted = f1(micro.sentence_support, micro.nugget_coverage_weighted);
  for (const m of RATIO_METRICS) {
    out[`${m}_micro`] = micro[m];
    out[`${m}_macro`] = topics.length ? numpyMean(column(m)) : 0;
  }
  return out;
}
