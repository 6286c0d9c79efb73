import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RougeScorer, type RougeType } from '../grade/index.js';

/** The folder of rouge-score's own test data and expected values (bundled with the tests). */
export const ROUGE_TESTDATA = fileURLToPath(
  new URL('../grade/qa/__fixtures__/rouge-score/', import.meta.url),
);

type Text = string | string[] | { file: string; line?: number };
interface Case {
  test: string;
  line: string;
  types: RougeType[];
  stemmer: boolean;
  target: Text;
  prediction: Text;
  multi: boolean;
  places: number;
  expected: Partial<Record<RougeType, Partial<Record<'precision' | 'recall' | 'fmeasure', number>>>>;
}

/** One expected value of rouge-score's tests next to citegeist's value. */
export interface RougeReferenceValue {
  test: string;
  line: string;
  type: RougeType;
  field: 'precision' | 'recall' | 'fmeasure';
  expected: number;
  actual: number;
  tolerance: number;
  ok: boolean;
}

function text(value: Text): string | string[] {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const content = readFileSync(`${ROUGE_TESTDATA}${value.file}`, 'utf8');
  if (value.line === undefined) return content;
  // Python's f.readlines(): lines keep their newline.
  return content.match(/[^\n]*\n|[^\n]+$/g)![value.line]!;
}

/**
 * Every expected value of rouge-score's rouge_scorer_test.py that applies (expected.json), scored
 * with citegeist's RougeScorer: shared by the unit test and `npm run parity`.
 */
export function rougeReferenceValues(): RougeReferenceValue[] {
  const { cases } = JSON.parse(readFileSync(`${ROUGE_TESTDATA}expected.json`, 'utf8')) as { cases: Case[] };
  return cases.flatMap((c) => {
    const scorer = new RougeScorer(c.types, { stemmer: c.stemmer });
    const target = text(c.target);
    const prediction = text(c.prediction) as string;
    const scores = c.multi
      ? scorer.scoreMulti(target as string[], prediction)!
      : scorer.score(target as string, prediction);
    const tolerance = 0.5 * 10 ** -c.places;
    return Object.entries(c.expected).flatMap(([type, fields]) =>
      Object.entries(fields!).map(([field, expected]) => {
        const actual = scores[type as RougeType]![field as 'precision'];
        return {
          test: c.test,
          line: c.line,
          type: type as RougeType,
          field: field as 'precision',
          expected,
          actual,
          tolerance,
          ok: Math.abs(actual - expected) < tolerance,
        };
      }),
    );
  });
}
