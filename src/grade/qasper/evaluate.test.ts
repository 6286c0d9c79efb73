import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { sharedDataPath, skipWithoutSharedData } from '../../testing/index.js';
import { normalizeAnswer, tokenF1 } from './answer-f1.js';
import { evaluateQasper, parseQasperPredictions } from './evaluate.js';
import { evidenceF1 } from './evidence-f1.js';
import { goldReferences, referenceOf } from './gold.js';

const dev = (...p: string[]) => sharedDataPath('qasper-dev', ...p);
let gold: unknown;
const goldJson = () => {
  gold ??= JSON.parse(readFileSync(dev('qasper-dev-gold.json'), 'utf8')) as unknown;
  return gold;
};

describe('QASPER official evaluator parity (reference-eval, exact equality)', () => {
  beforeEach(
    skipWithoutSharedData(
      ['qasper-dev', 'qasper-dev-gold.json'],
      ['qasper-dev', 'reference-eval'],
      ['qasper-dev', 'questions_validation.json'],
    ),
  );
  it.each([
    ['pred_all_unanswerable', false],
    ['pred_all_unanswerable', true],
    ['pred_mixed', false],
    ['pred_mixed', true],
    ['pred_yes_half', false],
    ['pred_yes_half', true],
  ])('%s text_evidence_only=%s', (name, textOnly) => {
    const expected = JSON.parse(
      readFileSync(dev('reference-eval', `${name}.eval${textOnly ? '_text_only' : ''}.json`), 'utf8'),
    ) as unknown;
    const predictions = parseQasperPredictions(readFileSync(dev('reference-eval', `${name}.jsonl`), 'utf8'));
    const scores = evaluateQasper(goldReferences(goldJson(), textOnly), predictions);
    // toStrictEqual compares every float with Object.is: tolerance 0.
    expect(scores).toStrictEqual(expected);
    expect(JSON.stringify(Object.keys(scores))).toBe(JSON.stringify(Object.keys(expected as object)));
  });

  it('reads the flat questions_validation.json layout to the same references', () => {
    const flat = JSON.parse(readFileSync(dev('questions_validation.json'), 'utf8')) as unknown;
    expect(goldReferences(flat, true)).toEqual(goldReferences(goldJson(), true));
  });
});

describe('normalizeAnswer (expected values from Python 3 with the official code)', () => {
  it.each([
    ['The Cat, a dog!', 'cat dog'],
    ['  An   apple\tthe\nend ', 'apple end'],
    ['theory another', 'theory another'],
    ['the_a', 'thea'],
    ['é the ñ', 'é ñ'],
    ['Über-the-top', 'überthetop'],
    ['a–the—b', '– —b'],
    ['x\u001cy\u0085z', 'x y z'],
    ['ña theñ', 'ña theñ'],
    ['\u0663the', '\u0663the'],
    ['', ''],
    ['(50%)', '50'],
    ['x\u00a0y\u3000z', 'x y z'],
    ['x\ufeffy', 'x\ufeffy'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeAnswer(input)).toBe(expected);
  });
});

describe('tokenF1', () => {
  it.each([
    ['same words', 'same words', 1],
    ['a b c', 'x y', 0],
    ['', '', 0],
    ['', 'gold', 0],
    ['cat cat dog', 'cat dog dog', 2 / 3],
    ['the cat', 'cat', 1],
    ['Yes', 'yes.', 1],
  ])('%j vs %j', (p, g, f1) => {
    expect(tokenF1(p, g)).toBeCloseTo(f1, 15);
  });
});

describe('evidenceF1', () => {
  it.each([
    [[], [], 1],
    [['p'], [], 0],
    [[], ['g'], 0],
    [['a', 'b'], ['a'], 2 / 3],
    [['a', 'a'], ['a'], 2 / 3],
    [['a'], ['a', 'b'], 2 / 3],
    [['x'], ['a'], 0],
  ])('%j vs %j', (p, g, f1) => {
    expect(evidenceF1(p, g)).toBeCloseTo(f1, 15);
  });
});

describe('references and predictions', () => {
  const base = {
    unanswerable: false,
    yes_no: null,
    free_form_answer: '',
    extractive_spans: [],
    evidence: [],
  };
  it.each([
    [
      { ...base, unanswerable: true, evidence: ['e'] },
      { answer: 'Unanswerable', evidence: [], type: 'none' },
    ],
    [
      { ...base, extractive_spans: ['a', 'b'], free_form_answer: 'x' },
      { answer: 'a, b', evidence: [], type: 'extractive' },
    ],
    [
      { ...base, free_form_answer: 'free' },
      { answer: 'free', evidence: [], type: 'abstractive' },
    ],
    [
      { ...base, yes_no: true },
      { answer: 'Yes', evidence: [], type: 'boolean' },
    ],
    [
      { ...base, yes_no: false, evidence: ['FLOAT SELECTED: Table 1', 'text'] },
      { answer: 'No', evidence: ['text'], type: 'boolean' },
    ],
  ])('%j', (answer, expected) => {
    expect(referenceOf(answer, true, 'test')).toEqual(expected);
  });

  it('rejects an annotation with no answer at all', () => {
    expect(() => referenceOf(base, false, 'gold q1')).toThrow(/gold q1 gives no answer/);
  });

  it('counts missing predictions as 0 and ignores predictions for unknown questions', () => {
    const gold = goldReferences(
      [
        { question_id: 'q1', answers: [{ ...base, yes_no: true }] },
        { question_id: 'q2', answers: [{ ...base, unanswerable: true }] },
      ],
      false,
    );
    const preds = parseQasperPredictions(
      '{"question_id":"q1","predicted_answer":"no","predicted_evidence":[]}\n{"question_id":"q1","predicted_answer":"yes","predicted_evidence":[]}\n{"question_id":"zz","predicted_answer":"yes","predicted_evidence":[]}\n',
    );
    expect(evaluateQasper(gold, preds)).toStrictEqual({
      'Answer F1': 0.5,
      'Answer F1 by type': { extractive: 0, abstractive: 0, boolean: 1, none: 0 },
      'Evidence F1': 0.5,
      'Missing predictions': 1,
    });
  });

  it.each([
    ['{"question_id": "q1"', /preds.jsonl line 1 is not JSON/],
    [
      '{"question_id": "q1", "predicted_answer": 3, "predicted_evidence": []}',
      /line 1 is not a QASPER prediction/,
    ],
    [
      '\n{"question_id": "q1", "predicted_answer": "", "predicted_evidence": [1]}',
      /line 2 is not a QASPER prediction/,
    ],
  ])('rejects bad prediction line %j', (text, error) => {
    expect(() => parseQasperPredictions(text, 'preds.jsonl')).toThrow(error);
  });

  it.each([
    [42, /neither a QASPER paper map/],
    [{ p: {} }, /paper p has no "qas"/],
    [[{ answers: [] }], /no "question_id"/],
    [[{ question_id: 'q', answers: [{ unanswerable: 'no' }] }], /question q answer 1 is not a QASPER answer/],
  ])('rejects bad gold %j', (data, error) => {
    expect(() => goldReferences(data, false)).toThrow(error);
  });
});
