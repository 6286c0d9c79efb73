/**
 * ROUGE against Google's rouge-score 0.1.2: every expected value of its rouge_scorer_test.py that
 * applies (ROUGE-1.5.5 ground truth on its test-data files, and its unit cases), and the Porter
 * stemmer it applies (NLTK's PorterStemmer) on a word list whose stems NLTK 3.8 wrote itself.
 * The files are bundled with the tests (src/grade/qa/__fixtures__), so this runs anywhere.
 */
import { readFileSync } from 'node:fs';
import { porterStem } from '../../src/grade/index.js';
import { ROUGE_TESTDATA, rougeReferenceValues } from '../../src/testing/rouge-reference-cases.js';
import type { ParityCheck } from './parity-check.js';

export async function run(): Promise<ParityCheck[]> {
  const values = rougeReferenceValues();
  const ground = values.filter((v) => v.test.includes('Rouge155'));
  const unit = values.filter((v) => !v.test.includes('Rouge155'));
  const maxDelta = (vs: typeof values) => Math.max(...vs.map((v) => Math.abs(v.actual - v.expected)));
  const stems = readFileSync(`${ROUGE_TESTDATA}../nltk-porter.tsv`, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t') as [string, string]);
  const stemOk = stems.filter(([w, s]) => porterStem(w) === s).length;
  return [
    {
      reference: 'rouge-score 0.1.2 (Google) vs ROUGE-1.5.5',
      compared:
        'ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum P/R/F, with and without stemming, against the ROUGE-1.5.5 values its tests assert (5 decimals)',
      files:
        'testdata/target.txt, prediction.txt, pyrouge_files/target_multi.0.txt, prediction_multi.0.txt (rouge_scorer_test.py l. 118–184)',
      result: `${ground.filter((v) => v.ok).length} of ${ground.length} values within 0.5e-5 (max |Δ| ${maxDelta(ground).toExponential(1)})`,
      pass: ground.every((v) => v.ok),
    },
    {
      reference: 'rouge-score 0.1.2 (Google)',
      compared:
        'the unit cases of rouge_scorer_test.py: rouge1/2/L/Lsum, score_multi, empty and non-word inputs, newline-split Lsum',
      files: 'rouge_scorer_test.py l. 57–116, 186–203, 270–310',
      result: `${unit.filter((v) => v.ok).length} of ${unit.length} values within the test's places (max |Δ| ${maxDelta(unit).toExponential(1)})`,
      pass: unit.every((v) => v.ok),
    },
    {
      reference: 'NLTK 3.8 PorterStemmer (the stemmer rouge-score applies)',
      compared: 'stem of every word, default mode NLTK_EXTENSIONS',
      files: 'nltk-porter.tsv: 8,756 QASPER dev words stemmed by NLTK itself',
      result: `${stemOk} of ${stems.length} stems identical`,
      pass: stemOk === stems.length,
    },
  ];
}
