import { describe, expect, it } from 'vitest';
import type { HumanSet, JudgeLabels } from '../human-labels/index.js';
import { checkJudgeCard, readJudgeCard } from './card-file.js';
import { buildJudgeCard } from './judge-card.js';

const set: HumanSet = {
  name: 'tiny',
  dimension: null,
  scale: {
    kind: 'binary',
    categories: [
      { code: 0, name: 'no' },
      { code: 1, name: 'yes' },
    ],
    meaning: 'yes/no',
  },
  items: [0, 1, 1, 0, 1, 0].map((v, i) => ({
    id: `i${i}`,
    inputs: {},
    labels: [{ annotator: 'a', value: v }],
    group: i < 3 ? 'g1' : 'g2',
  })),
  sha256: 'a'.repeat(64),
  licence: 'test',
  source: 'test',
};
const labels: JudgeLabels = {
  values: new Map([
    ['i0', 0],
    ['i1', 1],
    ['i2', 0],
    ['i3', 0],
    ['i4', 1],
  ]),
  failed: ['i5'],
  continuous: false,
  manifest: null,
  orders: new Map(),
  problems: [],
};
const card = buildJudgeCard(
  set,
  labels,
  { model: 'openai:m', prompt_version: 'abc', kind: 'labels-file' },
  { iterations: 100, version: 'test' },
);

describe('self-preference probe', () => {
  it('on pairs with one answer of the judge’s family: judge’s preference for it minus people’s, by hand', () => {
    const pairs: HumanSet = {
      ...set,
      scale: {
        kind: 'preference',
        categories: [-1, 0, 1].map((code) => ({ code, name: String(code) })),
        meaning: 'answer 2 over 1',
      },
      items: [
        {
          id: 'p1',
          inputs: { family_1: 'openai', family_2: 'meta' },
          labels: [{ annotator: 'a', value: 1 }],
        },
        {
          id: 'p2',
          inputs: { family_1: 'meta', family_2: 'openai' },
          labels: [{ annotator: 'a', value: 0 }],
        },
        {
          id: 'p3',
          inputs: { family_1: 'openai', family_2: 'openai' },
          labels: [{ annotator: 'a', value: 1 }],
        },
      ],
    };
    const judged: JudgeLabels = {
      ...labels,
      failed: [],
      values: new Map([
        ['p1', -1],
        ['p2', 1],
        ['p3', 1],
      ]),
    };
    const c = buildJudgeCard(
      pairs,
      judged,
      { model: 'openai:m', prompt_version: null, kind: 'labels-file', family: 'openai' },
      { iterations: 50, version: 'test' },
    );
    // p1: own = answer 1 → judge +1 (it chose answer 1), people −1; p2: own = answer 2 → judge +1, people 0; p3 has two own answers
    expect(c.probes.self_preference).toMatchObject({
      family: 'openai',
      pairs: 2,
      judge_mean: 1,
      human_mean: -0.5,
    });
    expect(c.probes.self_preference!.bias.estimate).toBeCloseTo(1.5, 12);
    const none = buildJudgeCard(
      pairs,
      judged,
      { model: 'x', prompt_version: null, kind: 'labels-file' },
      { iterations: 50, version: 'test' },
    );
    expect(none.probes.self_preference).toBeUndefined();
  });
});

describe('judge card files', () => {
  it('a card counts judge failures apart (never as labels) and reads back from its JSON', () => {
    expect(card.counts).toEqual({ judged: 5, failed: 1, not_judged: 0, pairs: 5 });
    expect(card.measures.accuracy!.estimate).toBeCloseTo(4 / 5, 12);
    expect(card.ceiling.available).toBe(false);
    const back = readJudgeCard(JSON.stringify(card), 'card.json');
    expect(back.manifest.kind).toBe('judge-card');
    expect(back.measures).toEqual(card.measures);
  });
  it('a changed prompt version or another model makes the card stale (JUDGE_CARD_STALE)', () => {
    expect(() =>
      checkJudgeCard(card, { model: 'openai:m', promptVersion: 'abc' }, 'card.json'),
    ).not.toThrow();
    expect(() => checkJudgeCard(card, { model: 'openai:m', promptVersion: 'def' }, 'card.json')).toThrow(
      /prompt version "abc", not "def"/,
    );
    expect(() => checkJudgeCard(card, { model: 'openai:other', promptVersion: 'abc' }, 'card.json')).toThrow(
      /judge "openai:m", not "openai:other"/,
    );
  });
  it('a file that is not a card is refused', () => {
    expect(() => readJudgeCard('{"a":1}', 'x.json')).toThrow(/x\.json is not a judge card/);
    expect(() => readJudgeCard('nope', 'x.json')).toThrow(/x\.json is not JSON/);
  });
});
