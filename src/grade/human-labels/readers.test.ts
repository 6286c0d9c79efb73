import { beforeEach, describe, expect, it } from 'vitest';
import { missingSharedData, sharedDataPath, skipWithoutSharedData } from '../../testing/shared-data.js';
import { readAlceUtility } from './alce-utility.js';
import { readCheckCovid } from './check-covid.js';
import { CROWDRAG_DIMENSIONS, readCrowdrag25, readCrowdragLlmRatings } from './crowdrag25.js';
import type { HumanSet } from './human-set.js';
import { readRagchecker, readRagcheckerScores } from './ragchecker.js';
import { readHumanSet } from './sets.js';

const dir = (name: string) => sharedDataPath('human-labels', name);
const missing = missingSharedData(['human-labels', 'README.md']);

/** How many items carry each label code (first label of each item, or every label with `all`). */
function distribution(set: HumanSet, all = false): Record<number, number> {
  const out: Record<number, number> = {};
  for (const item of set.items) {
    for (const l of all ? item.labels : item.labels.slice(0, 1)) out[l.value] = (out[l.value] ?? 0) + 1;
  }
  return out;
}

// Every count below is the one measured in the set's SCHEMA.md (../shared/data/human-labels/<set>/SCHEMA.md).
describe(`human-judgment readers: counts as in each SCHEMA.md ${missing ?? ''}`, () => {
  beforeEach(skipWithoutSharedData(['human-labels', 'README.md']));
  it('Check-COVID: 1,504 items, SUPPORT 505 / REFUTE 504 / NEI 495, extracted 322 (134/85/103), composed 1,182', () => {
    const set = readCheckCovid(dir('check-covid'));
    expect(set.items).toHaveLength(1504);
    expect(distribution(set)).toEqual({ 0: 505, 1: 504, 2: 495 });
    const extracted = set.items.filter((i) => i.group === 'extracted');
    expect(extracted).toHaveLength(322);
    expect(distribution({ ...set, items: extracted })).toEqual({ 0: 134, 1: 85, 2: 103 });
    expect(set.items.filter((i) => i.group === 'composed')).toHaveLength(1182);
    // the evidence sentences: 1,539 primary + 447 supplementary = 1,986, every one found
    const sentences = set.items.flatMap((i) => i.inputs.evidence as string[]);
    expect(sentences).toHaveLength(1986);
    expect(sentences.every((s) => s.length > 0)).toBe(true);
    expect(new Set(set.items.map((i) => i.inputs.claim)).size).toBe(1005);
  });

  it('RAGChecker: 280 pairs × 2 annotators; 560-label distributions per dimension; same-label rate 0.50/0.60/0.55', () => {
    const want = {
      correctness: { '-2': 50, '-1': 124, 0: 234, 1: 112, 2: 40, same: 0.5 },
      completeness: { '-2': 49, '-1': 134, 0: 211, 1: 117, 2: 49, same: 0.6 },
      overall: { '-2': 52, '-1': 153, 0: 170, 1: 139, 2: 46, same: 0.55 },
    } as const;
    for (const [dimension, w] of Object.entries(want)) {
      const set = readRagchecker(dir('ragchecker'), dimension as 'overall');
      expect(set.items).toHaveLength(280);
      expect(set.items.every((i) => i.labels.length === 2)).toBe(true);
      expect(distribution(set, true)).toEqual({ [-2]: w['-2'], [-1]: w['-1'], 0: w[0], 1: w[1], 2: w[2] });
      const same = set.items.filter((i) => i.labels[0]!.value === i.labels[1]!.value).length / 280;
      expect(same).toBeCloseTo(w.same, 2);
    }
    const set = readRagchecker(dir('ragchecker'));
    expect(new Set(set.items.map((i) => i.group)).size).toBe(10);
    const { scores } = readRagcheckerScores(dir('ragchecker'));
    expect(scores.size).toBe(280);
  });

  it('CrowdRAG-25: 1,352 items × 5 workers, 420 workers, gold a/n/b per dimension as SCHEMA.md, pair types 806/278/268', () => {
    const gold: Record<string, [number, number, number]> = {
      correctness_topical: [458, 378, 516],
      coherence_logical: [539, 302, 511],
      coherence_stylistic: [387, 567, 398],
      coverage_broad: [437, 449, 466],
      coverage_deep: [468, 371, 513],
      consistency_internal: [402, 443, 507],
      quality_overall: [657, 0, 695],
    };
    const workers = new Set<string>();
    for (const d of CROWDRAG_DIMENSIONS) {
      const set = readCrowdrag25(dir('crowdrag25'), d);
      expect(set.items).toHaveLength(1352);
      expect(set.items.every((i) => i.labels.length === 5)).toBe(true);
      for (const i of set.items) for (const l of i.labels) workers.add(l.annotator);
      const g = [-1, 0, 1].map((code) => set.items.filter((i) => i.gold === code).length);
      expect(g).toEqual(gold[d]);
    }
    expect(workers.size).toBe(420);
    const set = readCrowdrag25(dir('crowdrag25'));
    const types = { 'human–llm': 0, 'llm–llm': 0, 'human–human': 0 } as Record<string, number>;
    for (const i of set.items) types[i.group!] = (types[i.group!] ?? 0) + 1;
    expect(types).toEqual({ 'human–llm': 806, 'llm–llm': 278, 'human–human': 268 });
    expect(set.items.every((i) => i.inputs.question && i.inputs.answer_1 && i.inputs.answer_2)).toBe(true);
    expect(readCrowdragLlmRatings(dir('crowdrag25')).ratings).toHaveLength(2359);
  });

  it('ALCE utility: 800 answers; asqa 51/37/38/88/186, eli5 51/37/50/145/117', () => {
    const set = readAlceUtility(dir('alce-utility'));
    expect(set.items).toHaveLength(800);
    const by = (g: string) => distribution({ ...set, items: set.items.filter((i) => i.group === g) });
    expect(by('asqa')).toEqual({ 1: 51, 2: 37, 3: 38, 4: 88, 5: 186 });
    expect(by('eli5')).toEqual({ 1: 51, 2: 37, 3: 50, 4: 145, 5: 117 });
    expect(set.items.filter((i) => (i.inputs.answer as string).trim() === '')).toHaveLength(22);
  });

  it('every set has a content hash, licence and source; ids are unique', () => {
    for (const name of ['check-covid', 'ragchecker', 'crowdrag25', 'alce-utility']) {
      const set = readHumanSet(name, sharedDataPath('human-labels'));
      expect(set.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(set.licence.length).toBeGreaterThan(0);
      expect(new Set(set.items.map((i) => i.id)).size).toBe(set.items.length);
    }
  });
});

describe('readHumanSet refusals', () => {
  it('an unknown set or dimension is a BAD_OPTION naming the choices', () => {
    expect(() => readHumanSet('nope', '/nowhere')).toThrow(/no human-judgment set "nope".*/);
    expect(() => readHumanSet('ragchecker', '/nowhere', 'fluency')).toThrow(/no dimension "fluency"/);
  });
  it('a missing folder is HUMAN_SET_MISSING naming the file', () => {
    expect(() => readHumanSet('check-covid', '/nowhere')).toThrow(/corpus\.json is missing/);
  });
});
