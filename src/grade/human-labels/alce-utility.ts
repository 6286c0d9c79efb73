import { type HumanItem, type HumanSet, type LabelScale, parseLabel } from './human-set.js';
import { SetFiles } from './set-files.js';

export const ALCE_UTILITY_SCALE: LabelScale = {
  kind: 'ordinal',
  categories: [1, 2, 3, 4, 5].map((code) => ({ code, name: String(code) })),
  meaning: 'utility of a long cited answer, 1–5 (higher = more useful is assumed; ALCE does not state it)',
};

interface Record_ {
  id: string;
  question: string;
  output: string;
  utility_score: number;
}

/**
 * ALCE's human utility ratings (Princeton NLP, MIT licence): 2 data sets × 4 system configs × 100
 * questions = 800 answers, one rating each (no annotator ids). Item id: `dataset/config/question id`;
 * inputs: `question`, `answer`; group: the data set (asqa, eli5).
 */
export function readAlceUtility(dir: string): HumanSet {
  const files = new SetFiles(dir, 'alce-utility');
  const data = files.json('human_eval_utility_completed.json') as Record<
    string,
    Record<string, Record<string, Record_>>
  >;
  const items: HumanItem[] = [];
  for (const [dataset, configs] of Object.entries(data)) {
    for (const [config, records] of Object.entries(configs)) {
      for (const [qid, r] of Object.entries(records)) {
        if (qid === 'overall_results') continue;
        items.push({
          id: `${dataset}/${config}/${qid}`,
          inputs: { question: r.question, answer: r.output },
          labels: [
            {
              annotator: 'alce',
              value: parseLabel(
                ALCE_UTILITY_SCALE,
                r.utility_score,
                `${dir}/human_eval_utility_completed.json ${dataset}/${config}/${qid}`,
              ),
            },
          ],
          group: dataset,
        });
      }
    }
  }
  return {
    name: 'alce-utility',
    dimension: null,
    scale: ALCE_UTILITY_SCALE,
    items,
    sha256: files.sha256(),
    licence: 'MIT, Copyright (c) 2023 Princeton Natural Language Processing (ALCE)',
    source: 'https://github.com/princeton-nlp/ALCE @ 246c476 (human_eval/human_eval_utility_completed.json)',
  };
}
