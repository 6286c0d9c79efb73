import { describe, expect, it } from 'vitest';
import { topicValues } from './argue-metrics.js';
import { countRepeats, readRepeatSentences, topicValuesOverRepeats } from './judged-repeats.js';
import { JUDGMENT, type JudgedSentence, type Judgment } from './judgments.js';
import type { NuggetIndex } from './nugget-index.js';
import { parseJudgments } from './score-judgments.js';

const prov = (doc: string | null) => ({ doc_id: doc, sentence: null, run_id: 'r', sent_id: 0 });
const attested = (yes: boolean): Judgment => ({
  judgment_type_id: JUDGMENT.attested,
  response: { judgment_type_id: JUDGMENT.attested, is_attested: yes },
  evaluator: 'm',
  provenance: prov('d1'),
});
const answers = (matched: string[]): Judgment => ({
  judgment_type_id: JUDGMENT.answers,
  response: {
    judgment_type_id: JUDGMENT.answers,
    matched_nuggets: matched.map((a) => ({ question_text: 'Q?', matched_answer: [a], importance: null })),
  },
  evaluator: 'm',
  provenance: prov('d1'),
});
const sentence = (judgments: Judgment[]): JudgedSentence => ({
  segment_type: 'sentence',
  text: 'Drug A works.',
  citations: [{ doc_id: 'd1', text: 'Drug A works.' }],
  judgments,
});
const index: NuggetIndex = {
  queryId: 'T',
  count: 1,
  weightedCount: 1,
  nuggets: new Map([
    ['Q?', { question: 'Q?', answers: new Set(['a', 'b']), aggregator: 'OR', importance: null, weight: 1 }],
  ]),
  unweightedLabels: [],
};

describe('reading a report judged K times', () => {
  it('rebuilds each later repeat on the line sentences; a list that does not fit is an error naming the line', () => {
    const main = [sentence([attested(true)])];
    const read = readRepeatSentences(
      { repeat_judgments: [[{ judgments: [attested(false)] }]] },
      main,
      'j line 3',
    );
    expect(read).toEqual([[{ ...main[0], judgments: [attested(false)] }]]);
    expect(readRepeatSentences({}, main, 'j line 3')).toBeUndefined();
    expect(() => readRepeatSentences({ repeat_judgments: [[]] }, main, 'j line 3')).toThrow(
      /j line 3, repeat 2: the repeat does not hold one entry per sentence \(1\)/,
    );
    const line = JSON.stringify({
      report: { metadata: { run_id: 'r', topic_id: 'T' } },
      judgments: main,
      citegeist: { repeats: 2, repeat_judgments: 'no' },
    });
    expect(parseJudgments(`${line}\n`, 'j.jsonl').problems).toEqual([
      {
        where: 'j.jsonl line 1',
        problem: expect.stringContaining('"citegeist.repeat_judgments" is not a list'),
      },
    ]);
  });

  it('counts every repeat, averages the topic values, and gives each judgment its verdict per repeat', () => {
    const repeats = [
      [sentence([answers(['a', 'b']), attested(true)])],
      [sentence([answers(['a']), attested(false)])],
    ];
    const judged = countRepeats([sentence([answers([]), attested(true)])], repeats, index);
    expect(judged.counts.map((c) => c.supportingCitations)).toEqual([1, 1, 0]);
    expect(judged.failed).toBe(0);
    const mean = topicValuesOverRepeats(judged.counts);
    expect(mean.citation_support).toBe(2 / 3);
    expect(mean.nugget_coverage).toBe(2 / 3);
    expect(topicValuesOverRepeats([judged.counts[0]!])).toEqual(topicValues(judged.counts[0]!));
    // Answers a and b (matched by some repeat) and the attestation, each with 3 verdicts.
    expect(judged.verdicts).toEqual([
      { type: JUDGMENT.answers, values: [0, 1, 1] },
      { type: JUDGMENT.answers, values: [0, 1, 0] },
      { type: JUDGMENT.attested, values: [1, 1, 0] },
    ]);
    expect(countRepeats([sentence([attested(true)])], undefined, index).verdicts).toEqual([]);
  });
});
