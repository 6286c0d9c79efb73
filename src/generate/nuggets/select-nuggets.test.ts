import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addNuggets,
  createNuggetBank,
  type NuggetBank,
  type NuggetQuestion,
  nuggetBankText,
  nuggetEntries,
  nuggetQuestion,
  readNuggetFile,
} from '../../formats/index.js';
import { sharedDataPath, skipWithoutSharedData } from '../../testing/index.js';
import { QUALITY_FEATURES } from './quality-features.js';
import { selectNuggets } from './select-nuggets.js';
import { SELECTOR_FORMAT, type Selector } from './selector.js';

/** A bank of nuggets named by their (paraphrases, answers) counts; `null` leaves the count out. */
function bank(counts: [number | null, number | null][], quality?: (i: number) => unknown): NuggetBank {
  const b = createNuggetBank({ query_id: 'r', title_query: 'r' });
  counts.forEach(([p, a], i) => {
    const metadata: Record<string, unknown> = {};
    if (p !== null) metadata.num_paraphrases_total = p;
    if (a !== null) metadata.num_answers = a;
    if (quality) metadata.quality = quality(i);
    addNuggets(b, nuggetQuestion({ query_id: 'r', question: `q${i}`, answers: ['x'], metadata }));
  });
  return b;
}
const keys = (b: NuggetBank) => nuggetEntries(b).map(([k]) => k);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Quality whose only informative feature is reading_level = v (the others constant). */
const quality = (v: number) => ({
  reading_level: v,
  complexity: 2,
  vitality: 'VITAL',
  personalization: { goal_match: 1, overall: 4 },
});
const selector: Selector = {
  format: SELECTOR_FORMAT,
  features: ['reading_level', 'complexity', 'vitality', 'personalization_goal_match'],
  weights: [-1, 5, 5, 5],
  bias: 0.5,
  standardise: 'per-request',
};

describe('selectNuggets (manestay/dogmatiq step4_select_top_nuggets.py)', () => {
  it('most-common: by paraphrases then answers, descending; ties keep bank order; a missing count is 0', () => {
    const b = bank([
      [1, 1],
      [3, 1],
      [3, 2],
      [null, 9],
      [3, 2],
      [2, 5],
    ]);
    const report = selectNuggets(b, { method: 'most-common', topK: 4 });
    expect(keys(b)).toEqual(['q2', 'q4', 'q1', 'q5']);
    expect(report).toMatchObject({ nuggets: 6, selected: 4, keptAll: false, byMostCommon: 4 });
  });

  it('keeps a bank of at most topK nuggets whole, whatever the method (no model_score)', () => {
    const b = bank(
      [
        [1, 1],
        [5, 5],
      ],
      () => quality(3),
    );
    const report = selectNuggets(b, { method: 'criteria', topK: 2, selector });
    expect(keys(b)).toEqual(['q0', 'q1']);
    expect(report.keptAll).toBe(true);
    expect((b.nugget_bank!.q0 as NuggetQuestion).metadata!.model_score).toBeUndefined();
  });

  it('sample: random.seed(seed); random.sample(nuggets, k) as CPython draws it', () => {
    const b = bank(range(30).map(() => [1, 1]));
    selectNuggets(b, { method: 'sample', topK: 20, seed: 1234 });
    // CPython 3.11: random.seed(1234); random.sample(range(30), 20)
    expect(keys(b)).toEqual(
      [24, 14, 3, 0, 2, 18, 1, 21, 25, 27, 11, 7, 26, 17, 16, 5, 10, 9, 29, 12].map((i) => `q${i}`),
    );
  });

  it('criteria: decision values over per-request z-scores, best first; model_score written as a float', () => {
    // reading_level 1..5 → z = (v-3)/√2; weight −1: the lowest reading level ranks first.
    const b = bank(
      range(5).map(() => [1, 1]),
      (i) => quality([4, 1, 5, 2, 3][i]!),
    );
    selectNuggets(b, { method: 'criteria', topK: 3, selector });
    expect(keys(b)).toEqual(['q1', 'q3', 'q4']);
    const scores = nuggetEntries(b).map(([, n]) => n.metadata!.model_score);
    expect(scores[0]).toBeCloseTo(2 / Math.SQRT2 + 0.5, 12);
    expect(scores[2]).toBe(0.5);
    expect(nuggetBankText(b)).toContain('"model_score": 0.5');
    // A constant score is still a Python float.
    const flat = bank(
      range(3).map(() => [1, 1]),
      () => quality(2),
    );
    selectNuggets(flat, { method: 'criteria', topK: 1, selector });
    expect(nuggetBankText(flat)).toContain('"model_score": 0.5\n');
  });

  it('criteria: nuggets without quality features are never chosen, and are reported', () => {
    const b = bank(
      range(4).map(() => [1, 1]),
      (i) => (i === 0 ? undefined : i === 1 ? { reading_level: 1 } : quality(i)),
    );
    const report = selectNuggets(b, { method: 'criteria', topK: 3, selector });
    expect(keys(b)).toEqual(['q2', 'q3']);
    expect(report.unscored).toEqual([
      { question: 'q0', reason: 'no metadata.quality' },
      { question: 'q1', reason: 'no complexity' },
    ]);
  });

  it('hybrid: integer counts > 1 in most-common order, capped at int(topK × share), the rest by criteria', () => {
    const b = bank(
      [
        [5, 5], // q0 eligible
        [9, 1], // q1 one answer: not eligible
        [4, 2], // q2 eligible
        [3, 3], // q3 eligible, beyond the cap
        [1, 1],
        [1, 1],
        [1, 1],
      ],
      (i) => quality([9, 1, 9, 9, 2, 8, 3][i]!),
    );
    const report = selectNuggets(b, { method: 'hybrid', topK: 4, maxMostCommon: 0.6, selector });
    // int(4 × 0.6) = 2 by counts (q0, q2); then the lowest reading levels among the other five.
    expect(keys(b)).toEqual(['q0', 'q2', 'q1', 'q4']);
    expect(report).toMatchObject({ byMostCommon: 2, byCriteria: 2 });
    expect((b.nugget_bank!.q0 as NuggetQuestion).metadata!.model_score).toBeUndefined();
    expect((b.nugget_bank!.q1 as NuggetQuestion).metadata!.model_score).toBeTypeOf('number');
  });

  it('hybrid: a count written as a float (2.0) is not an int to Python and is not eligible', () => {
    const [only] = readNuggetFile(
      writeTemp(
        JSON.stringify({
          query_id: 'r',
          title_query: 'r',
          nugget_bank: Object.fromEntries(
            range(3).map((i) => [
              `q${i}`,
              {
                question: `q${i}`,
                metadata: { num_paraphrases_total: 3, num_answers: 2, quality: quality(i) },
              },
            ]),
          ),
        })
          .replace('"num_answers": 2', '"num_answers": 2.0')
          .replace('"num_answers":2', '"num_answers":2.0'),
      ),
    );
    const report = selectNuggets(only!.bank, { method: 'hybrid', topK: 2, selector });
    expect(report).toMatchObject({ byMostCommon: 1, byCriteria: 1 });
  });

  it('refuses to rank by criteria a bank whose nuggets carry no quality features', () => {
    expect(() =>
      selectNuggets(bank(range(3).map(() => [1, 1])), { method: 'criteria', topK: 1, selector }),
    ).toThrow(/score-quality/);
  });

  it('refuses criteria and hybrid without a selector', () => {
    expect(() => selectNuggets(bank(range(3).map(() => [1, 1])), { method: 'criteria', topK: 1 })).toThrow(
      /trained selector/,
    );
  });

  it('deletes sub-nuggets unless asked to keep them', () => {
    const b = bank([[1, 1]]);
    (b.nugget_bank!.q0 as NuggetQuestion).sub_nuggets = [{ question: 'p' }];
    selectNuggets(b, { method: 'most-common', topK: 5 });
    expect(b.nugget_bank!.q0!.sub_nuggets).toBeUndefined();
  });
});

function writeTemp(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'select-')), 'bank.json');
  writeFileSync(path, text);
  return path;
}

const RELEASED = sharedDataPath('nuggets');
const released = (name: string) => join(RELEASED, name);

describe('on the released DoGMaTiQ banks (../shared/data/nuggets; skipped when absent)', () => {
  beforeEach(skipWithoutSharedData(['nuggets', 'nugget_1001.v3.json']));
  it.each([
    'nugget_1001.v3.json',
    'nugget_1013.v3.json',
    'nugget_with_scores_1001.v3.json',
    'nugget_with_scores_1013.v3.json',
    'ginger_1013.v3.json',
  ])('%s: read, select (bank of ≤ 20: kept whole), write back byte for byte', (name) => {
    const [loaded] = readNuggetFile(released(name));
    for (const method of ['most-common', 'sample'] as const) {
      selectNuggets(loaded!.bank, { method, topK: 20 });
      expect(nuggetBankText(loaded!.bank)).toBe(readFileSync(released(name), 'utf8'));
    }
  });

  it('their criteria selection carries the 19 features this selector reads', () => {
    const [loaded] = readNuggetFile(released('nugget_with_scores_1013.v3.json'));
    for (const [, n] of nuggetEntries(loaded!.bank)) {
      const meta = n.metadata as { quality: Record<string, unknown> };
      expect(Object.keys(meta.quality)).toContain('general_qualities');
    }
    expect(QUALITY_FEATURES).toHaveLength(19);
  });

  /** Both topic-1001 banks merged with the reference library's merge, in the given order. */
  function merged(first: string, second: string): NuggetBank {
    const [a] = readNuggetFile(released(first));
    const [b] = readNuggetFile(released(second));
    addNuggets(
      a!.bank,
      nuggetEntries(b!.bank).map(([, n]) => n),
    );
    return a!.bank;
  }

  // Hand-computed in Python over the same merge (38 nuggets, 2 questions in both banks):
  // sorted(range(38), key=lambda i: (total[i], answers[i]), reverse=True)[:20] and
  // random.seed(1234); random.sample(keys, 20), as positions in the merged bank.
  it.each([
    [
      'nugget_1001.v3.json',
      'nugget_with_scores_1001.v3.json',
      range(20),
      [28, 7, 0, 5, 2, 34, 6, 24, 11, 36, 35, 27, 25, 26, 29, 20, 19, 15, 21, 14],
    ],
    [
      'nugget_with_scores_1001.v3.json',
      'nugget_1001.v3.json',
      [20, 21, 22, 8, 23, 24, 15, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 2, 36],
      [28, 7, 0, 5, 2, 34, 6, 24, 11, 36, 35, 27, 25, 26, 29, 20, 19, 15, 21, 14],
    ],
  ])(
    'merged %s + %s: most-common and sample match the hand-computed selection',
    (first, second, common, sample) => {
      const m1 = merged(first, second);
      const all = keys(m1);
      expect(all).toHaveLength(38);
      selectNuggets(m1, { method: 'most-common', topK: 20 });
      expect(keys(m1)).toEqual(common.map((i) => all[i]));
      const m2 = merged(first, second);
      selectNuggets(m2, { method: 'sample', topK: 20, seed: 1234 });
      expect(keys(m2)).toEqual(sample.map((i) => all[i]));
    },
  );
});
