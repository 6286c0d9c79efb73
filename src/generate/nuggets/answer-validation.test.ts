import { describe, expect, it } from 'vitest';
import { answerEntries, nuggetQuestion } from '../../formats/index.js';
import { applyVerdict, cleanAnswers, parseMultiVerdict } from './answer-validation.js';
import { parseQaPairs } from './grounded-qa.js';

const nugget = (answers: { answer: string; references?: string[] }[]) =>
  nuggetQuestion({
    query_id: 'r',
    question: 'Q?',
    answers,
    metadata: { num_paraphrases_total: 3, num_answers: answers.length },
  });

describe('cleanAnswers (step3_process_answers.py clean_answers)', () => {
  it.each([
    ['Unknown', true],
    ['unknown date', true],
    ['No information given', true],
    ['no details', true],
    ['Not stated in the text', true],
    ['None of the above', true],
    ['none', true],
    ['NONE', true],
    ['Nonetheless positive', false], // "none" without the space is only dropped alone
    ['notable gains', false], // "not" needs the space
    ['knot', false],
  ])('%s → dropped: %s', (text, dropped) => {
    const { nugget: out, dropped: n } = cleanAnswers(nugget([{ answer: text }, { answer: 'Vienna' }]));
    expect(n).toBe(dropped ? 1 : 0);
    expect(answerEntries(out).map(([k]) => k)).toEqual(dropped ? ['Vienna'] : [text, 'Vienna']);
  });

  it('merges case duplicates into the first, references deduplicated by doc id, num_answers refreshed', () => {
    const { nugget: out } = cleanAnswers(
      nugget([
        { answer: 'Vienna', references: ['d1', 'd1'] },
        { answer: 'VIENNA', references: ['d2', 'd1'] },
        { answer: 'vienna', references: ['d3'] },
      ]),
    );
    expect(answerEntries(out).map(([, a]) => a)).toEqual([
      { answer: 'Vienna', references: [{ doc_id: 'd1' }, { doc_id: 'd2' }, { doc_id: 'd3' }] },
    ]);
    expect(out.metadata).toEqual({ num_paraphrases_total: 3, num_answers: 1 });
  });
});

describe('answer verdicts', () => {
  it.each([
    ['[{"1": "YES", "2": " no "}, "and"]', { removed: [2], aggregator: 'AND' }],
    [
      '```json\n[{"1": "NO", "3": "NO", "9": "NO", "x": "NO"}, "OR"]\n```',
      { removed: [1, 3], aggregator: 'OR' },
    ],
    ['[{"1": "YES"}, "BOTH"]', null],
    ['{"1": "YES"}', null],
    ['[{"1": "YES"}]', null],
    ["I'm sorry, I can't judge these.", null],
  ])('%s', (reply, expected) => {
    expect(parseMultiVerdict(reply, 3)).toEqual(expected);
  });

  it('a nugget whose answers are all rejected is dropped; else it takes the aggregator', () => {
    const n = nugget([{ answer: 'a' }, { answer: 'b' }]);
    const base = {
      request_id: 'r',
      question: 'Q?',
      answers: ['a', 'b'],
      drop_nugget: false,
      status: 'ok' as const,
    };
    expect(applyVerdict(n, { ...base, removed: [1, 2], aggregator: 'OR' })).toBeNull();
    const kept = applyVerdict(n, { ...base, removed: [1], aggregator: 'AND' })!;
    expect(Object.keys(kept)).toEqual([
      'question',
      'answers',
      'question_id',
      'aggregator_type',
      'query_id',
      'metadata',
    ]);
    expect(kept.aggregator_type).toBe('AND');
    expect(kept.metadata!.num_answers).toBe(1);
    expect(applyVerdict(n, { ...base, removed: [], aggregator: 'OR', drop_nugget: true })).toBeNull();
  });
});

describe('parseQaPairs', () => {
  it('keeps the well-formed pairs of a list, trimmed; anything else is unusable', () => {
    expect(
      parseQaPairs(
        'Pairs:\n[{"answer": " 1986 ", "question": " When? "}, {"answer": 3, "question": "x"}, {"question": "y"}, {"answer": "", "question": "z"}]',
      ),
    ).toEqual([{ answer: '1986', question: 'When?' }]);
    expect(parseQaPairs('{"answer": "a", "question": "q"}')).toBeNull();
    expect(parseQaPairs('no JSON here')).toBeNull();
    expect(parseQaPairs('[]')).toEqual([]);
  });
});
