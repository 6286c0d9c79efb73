import { CitegeistError, quoteValue } from '../../core/index.js';
import { modelFamily } from '../../llm/index.js';
import { type HumanItem, type HumanSet, type LabelScale, parseLabel } from './human-set.js';
import { type SetFileReads, SetFiles } from './set-files.js';

export const CROWDRAG_DIMENSIONS = [
  'correctness_topical',
  'coherence_logical',
  'coherence_stylistic',
  'coverage_broad',
  'coverage_deep',
  'consistency_internal',
  'quality_overall',
] as const;
export type CrowdragDimension = (typeof CROWDRAG_DIMENSIONS)[number];

/** A = response_a (shown left) better, N = equal, B = response_b better; coded −1, 0, 1 (answer 2 = b). */
export const CROWDRAG_SCALE: LabelScale = {
  kind: 'preference',
  categories: [
    { code: -1, name: 'a' },
    { code: 0, name: 'n' },
    { code: 1, name: 'b' },
  ],
  meaning:
    'preference between response_a (answer 1, shown left) and response_b (answer 2): −1 = a better, 0 = equal, 1 = b better',
};

interface Rating {
  query_id: string;
  response_a: string;
  response_b: string;
  worker: string[];
  [field: string]: unknown;
}

/** The id of a pair as judged in one order: `query/response_a/response_b`. */
export const crowdragItemId = (query: string, a: string, b: string) => `${query}/${a}/${b}`;

/**
 * CrowdRAG-25 (Webis, data CC BY 4.0): 1,352 response pairs of TREC RAG 2024 topics, each judged
 * by 5 crowd workers on 7 dimensions, with the authors' aggregated gold label. Item id
 * `query/response_a/response_b`; inputs: `question`, `answer_1`, `answer_2` (the responses' texts
 * as in derived_rated_responses.jsonl); group: the pair type (`human–llm`, `llm–llm`, `human–human`).
 */
export function readCrowdrag25(
  dir: string,
  dimension: CrowdragDimension = 'quality_overall',
  reads?: SetFileReads,
): HumanSet {
  checkCrowdragDimension(dimension);
  const files = new SetFiles(dir, 'crowdrag25', reads);
  const responses = new Map(
    (
      files.jsonLines('derived_rated_responses.jsonl') as { response: string; kind: string; text: string }[]
    ).map((r) => [r.response, r]),
  );
  const queries = new Map(
    (files.jsonLines('raw__study1_retrieval.jsonl.gz') as { topic: string; query: string }[]).map((t) => [
      t.topic,
      t.query,
    ]),
  );
  const ratings = files.jsonLines('artifacts__ratings.jsonl.gz') as Rating[];
  const items: HumanItem[] = ratings.map((r, i) => {
    const where = `${dir}/artifacts__ratings.jsonl.gz line ${i + 1}`;
    const votes = r[`${dimension}_vote`];
    if (!Array.isArray(votes) || votes.length !== r.worker.length) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${where}: ${dimension}_vote is not one vote per worker.`,
        'The file is not CrowdRAG-25’s ratings.jsonl.gz as released: get it again.',
      );
    }
    const a = responses.get(r.response_a);
    const b = responses.get(r.response_b);
    const item: HumanItem = {
      id: crowdragItemId(r.query_id, r.response_a, r.response_b),
      inputs: {
        question: queries.get(r.query_id) ?? null,
        answer_1: a?.text ?? null,
        answer_2: b?.text ?? null,
        // LLM responses were written by GPT-4o (the paper), the others by crowd workers
        family_1: a ? (a.kind === 'llm' ? modelFamily('gpt-4o') : 'human') : null,
        family_2: b ? (b.kind === 'llm' ? modelFamily('gpt-4o') : 'human') : null,
      },
      labels: votes.map((v, w) => ({
        annotator: r.worker[w]!,
        value: parseLabel(CROWDRAG_SCALE, v, `${where} (${dimension}_vote[${w}])`),
      })),
      gold: parseLabel(CROWDRAG_SCALE, r[`${dimension}_gold`], `${where} (${dimension}_gold)`),
    };
    if (a && b) item.group = [a.kind, b.kind].sort().join('–');
    return item;
  });
  return {
    name: 'crowdrag25',
    dimension,
    scale: CROWDRAG_SCALE,
    items,
    sha256: files.sha256(),
    licence:
      'CC BY 4.0 (data), Gienapp et al., "The Viability of Crowdsourcing for RAG Evaluation", SIGIR 2025',
    source: 'https://github.com/webis-de/sigir25-rag-crowdsourcing @ 03ec5b4 (data/)',
  };
}

/** One LLM rating of a pair in one order (`artifacts__llm_ratings.jsonl.gz`); null = no rating. */
export interface CrowdragLlmRating {
  query_id: string;
  response_a: string;
  response_b: string;
  inference: 'combined' | 'individual';
  values: Record<CrowdragDimension, number | null>;
}

/** The authors' LLM judge ratings of pairs, on the same −1/0/1 codes as the crowd's. */
export function readCrowdragLlmRatings(dir: string): { ratings: CrowdragLlmRating[]; sha256: string } {
  const files = new SetFiles(dir, 'crowdrag25');
  const rows = files.jsonLines('artifacts__llm_ratings.jsonl.gz') as Record<string, string | null>[];
  const ratings = rows.map((r, i) => ({
    query_id: String(r.query_id),
    response_a: String(r.response_a),
    response_b: String(r.response_b),
    inference: r.inference as 'combined' | 'individual',
    values: Object.fromEntries(
      CROWDRAG_DIMENSIONS.map((d) => [
        d,
        r[d] === null || r[d] === undefined
          ? null
          : parseLabel(CROWDRAG_SCALE, r[d], `${dir}/artifacts__llm_ratings.jsonl.gz line ${i + 1} (${d})`),
      ]),
    ) as Record<CrowdragDimension, number | null>,
  }));
  return { ratings, sha256: files.sha256() };
}

export function checkCrowdragDimension(dimension: string): asserts dimension is CrowdragDimension {
  if (!(CROWDRAG_DIMENSIONS as readonly string[]).includes(dimension)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `CrowdRAG-25 has no dimension ${quoteValue(dimension)}.`,
      `Use one of ${CROWDRAG_DIMENSIONS.join(', ')}.`,
    );
  }
}
