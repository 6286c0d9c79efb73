import { krippendorffAlpha } from '../../stats/index.js';
import {
  CROWDRAG_DIMENSIONS,
  type CrowdragDimension,
  readCrowdrag25,
  readCrowdragLlmRatings,
  type SetFileReads,
} from '../human-labels/index.js';

/** Krippendorff's α (ordinal, a < n < b) per dimension, as the CrowdRAG-25 authors compute it. */
export interface CrowdragAgreementRow {
  dimension: CrowdragDimension;
  /** The LLM's two judgments of each pair with the crowd's gold labels of it, as four raters. */
  llm_combined_with_crowd: number | null;
  llm_individual_with_crowd: number | null;
  /** The LLM with itself (its judgments of the same pair). */
  llm_combined: number | null;
  llm_individual: number | null;
  units: number;
}

interface Judgment {
  query: string;
  a: string;
  b: string;
  value: number | null;
}

/**
 * The agreement of CrowdRAG-25's LLM judgments with its crowd gold labels, by the authors' procedure
 * (notebooks/9-llm-as-judge.ipynb in webis-de/sigir25-rag-crowdsourcing @ 03ec5b4): keep the crowd
 * items whose pair was judged in both orders; put every pair (LLM's and crowd's) in one order
 * (response ids sorted); keep the first two judgments per pair, inference mode and topic (file
 * order); then α at the ordinal level over units = pairs, raters = the LLM's two judgments and the
 * crowd's two gold labels. `flipLabels` turns a/b round when a pair is put in the other order, as
 * the notebook's replace calls intend; its released form compares upper-case keys with the
 * lower-case labels of the released files, so nothing is flipped there (`flipLabels: false`).
 */
export function reproduceCrowdragLlmAgreement(
  dir: string,
  options: { flipLabels: boolean },
): CrowdragAgreementRow[] {
  const llm = readCrowdragLlmRatings(dir).ratings;
  const reads: SetFileReads = new Map(); // the set's 3 files read once for all 7 dimensions
  return CROWDRAG_DIMENSIONS.map((dimension) => {
    const set = readCrowdrag25(dir, dimension, reads);
    const ordered = new Set(set.items.map((i) => i.id));
    const crowd: Judgment[] = set.items
      .map((i) => {
        const [query, a, b] = i.id.split('/') as [string, string, string];
        return { query, a, b, value: i.gold ?? null };
      })
      .filter((j) => ordered.has(`${j.query}/${j.b}/${j.a}`));
    const fromLlm = (mode: string) =>
      llm
        .filter((r) => r.inference === mode)
        .map((r) => ({ query: r.query_id, a: r.response_a, b: r.response_b, value: r.values[dimension] }));
    const human = firstTwo(canonical(crowd, options.flipLabels));
    const combined = firstTwo(canonical(fromLlm('combined'), options.flipLabels));
    const individual = firstTwo(canonical(fromLlm('individual'), options.flipLabels));
    return {
      dimension,
      llm_combined_with_crowd: alphaOverPairs([...combined, ...human]),
      llm_individual_with_crowd: alphaOverPairs([...individual, ...human]),
      llm_combined: alphaOverPairs(combined),
      llm_individual: alphaOverPairs(individual),
      units: new Set([...combined, ...human].map((j) => `${j.a}_${j.b}`)).size,
    };
  });
}

function canonical(judgments: Judgment[], flip: boolean): Judgment[] {
  return judgments.map((j) => {
    if (j.a <= j.b) return j;
    return { query: j.query, a: j.b, b: j.a, value: flip && j.value !== null ? -j.value : j.value };
  });
}

/** The first two judgments of each (topic, pair), in a stable sort by topic and pair. */
function firstTwo(judgments: Judgment[]): Judgment[] {
  const key = (j: Judgment) => `${j.query}\u0000${j.a}\u0000${j.b}`;
  const sorted = judgments
    .map((j, i) => ({ j, i }))
    .sort((p, q) => (key(p.j) < key(q.j) ? -1 : key(p.j) > key(q.j) ? 1 : p.i - q.i));
  const seen = new Map<string, number>();
  return sorted
    .filter(({ j }) => {
      const n = (seen.get(key(j)) ?? 0) + 1;
      seen.set(key(j), n);
      return n <= 2;
    })
    .map(({ j }) => j);
}

/** α over units = pairs (`a_b`), raters = the order of the judgments within a unit. */
function alphaOverPairs(judgments: Judgment[]): number | null {
  const units = new Map<string, (number | null)[]>();
  for (const j of judgments) {
    const id = `${j.a}_${j.b}`;
    units.set(id, [...(units.get(id) ?? []), j.value]);
  }
  const raters = Math.max(0, ...[...units.values()].map((v) => v.length));
  const data = Array.from({ length: raters }, (_, r) => [...units.values()].map((v) => v[r] ?? null));
  return krippendorffAlpha(data, 'ordinal');
}
