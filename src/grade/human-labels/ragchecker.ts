import { CitegeistError, quoteValue } from '../../core/index.js';
import { modelFamily } from '../../llm/index.js';
import { type HumanItem, type HumanSet, type LabelScale, parseLabel } from './human-set.js';
import { type SetFileReads, SetFiles } from './set-files.js';

export const RAGCHECKER_DIMENSIONS = ['correctness', 'completeness', 'overall'] as const;
export type RagcheckerDimension = (typeof RAGCHECKER_DIMENSIONS)[number];

export const RAGCHECKER_SCALE: LabelScale = {
  kind: 'preference',
  categories: [-2, -1, 0, 1, 2].map((code) => ({ code, name: String(code) })),
  meaning:
    'preference of answer 2 (model2) over answer 1 (model1): positive = answer 2 better, 0 = tie, ±2 stronger than ±1',
};

interface Side {
  model_name: string;
  response: string;
  ragchecker?: Record<string, number | null>;
}
interface Pair {
  instance_id: number;
  dataset: string;
  query: string;
  gt_answer: string;
  model1: Side;
  model2: Side;
  [label: string]: unknown;
}

/**
 * RAGChecker's meta-evaluation (Amazon, Apache-2.0): 280 answer pairs, each labelled by two
 * annotators (rows 2i and 2i + 1; the file has no annotator ids, so they are `annotator-1` and
 * `annotator-2` by position). Item id: the instance id; inputs: `question`, `reference`,
 * `answer_1`, `answer_2`, `model_1`, `model_2`; group: the source data set.
 */
export function readRagchecker(
  dir: string,
  dimension: RagcheckerDimension = 'overall',
  reads?: SetFileReads,
): HumanSet {
  checkDimension(dimension);
  const files = new SetFiles(dir, 'ragchecker', reads);
  const rows = files.json('human_labeled_data.json') as Pair[];
  const items: HumanItem[] = [];
  rows.forEach((row, i) => {
    const where = `${dir}/human_labeled_data.json record ${i}`;
    const value = parseLabel(RAGCHECKER_SCALE, row[`${dimension}_label`], `${where} (${dimension}_label)`);
    const label = { annotator: `annotator-${(i % 2) + 1}`, value };
    if (i % 2 === 1) {
      const item = items[items.length - 1];
      if (!item || item.id !== String(row.instance_id)) {
        throw new CitegeistError(
          'INVALID_INPUT',
          `${where}: instance ${row.instance_id} does not follow its first annotation (rows 2i and 2i + 1 must be one pair).`,
          'The file is not RAGChecker’s human_labeled_data.json as released: get it again.',
        );
      }
      item.labels.push(label);
      return;
    }
    items.push({
      id: String(row.instance_id),
      inputs: {
        question: row.query,
        reference: row.gt_answer,
        answer_1: row.model1.response,
        answer_2: row.model2.response,
        model_1: row.model1.model_name,
        model_2: row.model2.model_name,
        // the generator's family (`bm25_gpt_4` → openai), for the self-preference probe
        family_1: generatorFamily(row.model1.model_name),
        family_2: generatorFamily(row.model2.model_name),
      },
      labels: [label],
      group: row.dataset,
    });
  });
  return {
    name: 'ragchecker',
    dimension,
    scale: RAGCHECKER_SCALE,
    items,
    sha256: files.sha256(),
    licence: 'Apache-2.0; Copyright Amazon.com, Inc. or its affiliates (RAGChecker)',
    source: 'https://github.com/amazon-science/RAGChecker @ 6091f08 (data/meta_evaluation)',
  };
}

/**
 * RAGChecker's own automatic scores of the same 280 pairs (`baseline_ragchecker.json`): per
 * instance id, the score of answer 1 and answer 2 on the dimension (null where missing).
 */
export function readRagcheckerScores(
  dir: string,
  dimension: RagcheckerDimension = 'overall',
  reads?: SetFileReads,
): { scores: Map<string, { answer1: number | null; answer2: number | null }>; sha256: string } {
  checkDimension(dimension);
  const files = new SetFiles(dir, 'ragchecker', reads);
  const rows = files.json('baseline_ragchecker.json') as Pair[];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const scores = new Map(
    rows.map((r) => [
      String(r.instance_id),
      {
        answer1: num(r.model1.ragchecker?.[`${dimension}_label`]),
        answer2: num(r.model2.ragchecker?.[`${dimension}_label`]),
      },
    ]),
  );
  return { scores, sha256: files.sha256() };
}

/** `bm25_llama3_70b` → the family of `llama3-70b` (the retriever prefix is not the generator). */
function generatorFamily(system: string): string {
  return modelFamily(system.replace(/^(bm25|e5_mistral)_/, '').replace(/_/g, '-'));
}

function checkDimension(dimension: string): void {
  if (!(RAGCHECKER_DIMENSIONS as readonly string[]).includes(dimension)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `RAGChecker has no dimension ${quoteValue(dimension)}.`,
      `Use one of ${RAGCHECKER_DIMENSIONS.join(', ')}.`,
    );
  }
}
