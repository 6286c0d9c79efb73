import { beforeEach, describe, expect, it } from 'vitest';
import {
  addNuggets,
  createNuggetBank,
  md5,
  type NuggetQuestion,
  nuggetBankText,
  nuggetEntries,
  nuggetQuestion,
  readNuggetFile,
} from '../../../formats/index.js';
import { spearman } from '../../../stats/index.js';
import { FakeLlm, sharedDataPath, skipWithoutSharedData } from '../../../testing/index.js';
import {
  GENERAL_QUALITIES_SYSTEM,
  PERSONALIZATION_SYSTEM,
  VITALITY_SYSTEM,
} from '../prompts/quality-prompt.js';
import { QUALITY_FEATURES, qualityFeatures } from '../quality-features.js';
import { StepLog, stepKey } from '../step-log.js';
import { lexicalDiversity } from './bank-quality.js';
import { complexity, readingLevel, syllables } from './readability.js';
import {
  paraphraseSubNuggets,
  parseGeneralQualities,
  parsePersonalization,
  parseVitality,
  type QualityRecord,
  scoreBankQuality,
} from './score-quality.js';

describe('computed criteria', () => {
  it.each([
    ['cat', 1],
    ['potential', 3],
    ['dangers', 2],
    ['Geoffrey', 2],
    ['about', 2],
    ['the', 1],
    ['intelligence', 4],
  ])('syllables(%s) = %i', (w, n) => expect(syllables(w)).toBe(n));

  it('Flesch–Kincaid grade: 0.39·w/s + 11.8·syl/w − 15.59, floored at 0', () => {
    // 8 words, 14 syllables, 1 sentence.
    expect(readingLevel('What potential dangers did Geoffrey Hinton warn about?')).toBeCloseTo(
      0.39 * 8 + (11.8 * 14) / 8 - 15.59,
      10,
    );
    expect(readingLevel('The cat sat on the mat.')).toBe(0);
    expect(readingLevel('')).toBe(0);
  });

  it('complexity: mean syllables per word', () => {
    // why 1, did 1, geoffrey 2, hinton 2, leave 1, google 2
    expect(complexity('Why did Geoffrey Hinton leave Google?')).toBeCloseTo(9 / 6, 12);
    expect(complexity('?')).toBe(0);
  });

  it('lexical diversity: type-token ratio, distinct n-grams, inverse compression', () => {
    const d = lexicalDiversity(['a b a', 'a b']);
    expect(d.ttr).toBeCloseTo(2 / 5, 12);
    // unigrams 2/5, bigrams {a b, b a} 2/3, trigrams 1/1, 4-grams none (0)
    expect(d.distinct_n).toBeCloseTo((2 / 5 + 2 / 3 + 1 + 0) / 4, 12);
    expect(d.inverse_compression).toBeGreaterThan(0);
  });
});

describe('reading judge replies', () => {
  it.each([
    ['{"explanation": "central", "vitality": "VITAL"}', 'VITAL'],
    ['okay', 'OKAY'],
    ['I cannot judge this question.', null],
  ])('vitality %s', (reply, expected) => expect(parseVitality(reply)).toBe(expected));

  it('personalisation: five matches in [0, 1] and overall in [1, 5], else unreadable', () => {
    const good =
      '{"goal_match": 1, "background_match": 0.5, "role_match": 0, "communication_match": "0.8", "scope_match": 0.8, "overall": 4}';
    expect(parsePersonalization(good)).toEqual({
      goal_match: 1,
      background_match: 0.5,
      role_match: 0,
      communication_match: 0.8,
      scope_match: 0.8,
      overall: 4,
    });
    expect(parsePersonalization(good.replace('"overall": 4', '"overall": 7'))).toBeNull();
    expect(parsePersonalization('{"goal_match": 1}')).toBeNull();
  });

  it('general qualities: ten scores in [1, 5]', () => {
    const all = (v: number) =>
      `{${['fluency', 'clarity', 'ambiguity', 'relevance', 'incompleteness', 'assumptiveness', 'multifaceted', 'knowledge_intensiveness', 'subjectiveness', 'reasoning_intensiveness'].map((k) => `"${k}": ${v}`).join(', ')}}`;
    expect(parseGeneralQualities(all(3))).toMatchObject({ fluency: 3, reasoning_intensiveness: 3 });
    expect(parseGeneralQualities(all(0))).toBeNull();
    expect(parseGeneralQualities('```json\nnot json\n```')).toBeNull();
  });
});

describe('scoreBankQuality', () => {
  const GQ =
    '{"fluency": 5, "clarity": 5, "ambiguity": 2, "relevance": 4, "incompleteness": 2, "assumptiveness": 2, "multifaceted": 4, "knowledge_intensiveness": 2, "subjectiveness": 4, "reasoning_intensiveness": 4}';
  const PERS =
    '{"goal_match": 1, "background_match": 0.5, "role_match": 0, "communication_match": 0.8, "scope_match": 0.8, "overall": 4}';

  function bank() {
    const b = createNuggetBank({ query_id: 'r', title_query: 'r' });
    addNuggets(b, [
      nuggetQuestion({
        query_id: 'r',
        question: 'Where do the crows of Vienna live?',
        answers: ['zoo'],
        metadata: { num_answers: 1 },
      }),
      nuggetQuestion({ query_id: 'r', question: 'How large are the flocks?', answers: ['40'] }),
      nuggetQuestion({ query_id: 'r', question: 'Who counted them?', answers: ['we'] }),
    ]);
    return b;
  }

  it('writes the 19 criteria the selector reads; an unreadable reply is a named failure, not a score; a failed call is retried', async () => {
    const log = new StepLog<QualityRecord>((r) => stepKey(r.request_id, r.question));
    const llm = new FakeLlm((r) => {
      const [system, user] = [r.messages[0]!.content, r.messages[1]!.content];
      if (user.includes('Who counted')) return { fail: 'HTTP 500' };
      if (system === VITALITY_SYSTEM)
        return user.includes('flocks') ? "I'm sorry, I can't." : '{"vitality": "VITAL"}';
      if (system === PERSONALIZATION_SYSTEM) return PERS;
      if (system === GENERAL_QUALITIES_SYSTEM) return GQ;
      throw new Error('unexpected prompt');
    });
    const b = bank();
    const creator = { is_human: false, llm_model: 'fake', creation_date: '2026-01-01T00:00:00+00:00' };
    const embed = async (texts: string[]) => texts.map((_, i) => Float32Array.from([1, i]));
    const ctx = {
      requestId: 'r',
      request: { background: 'I study birds.', problemStatement: 'Crows of Vienna.' },
      llm,
      log,
      creator,
      embed,
      coverageCosine: 0.8,
    };
    const result = await scoreBankQuality(b, ctx);
    expect(result).toMatchObject({ scored: 2, unreadable: 1 });
    expect(result.failedCalls).toHaveLength(1);
    const [first, second, third] = Object.values(b.nugget_bank!) as NuggetQuestion[];
    const features = qualityFeatures(first!)!;
    expect(QUALITY_FEATURES.every((f) => features.has(f))).toBe(true);
    expect(features.get('vitality')).toBe(1);
    expect((second!.metadata!.quality as Record<string, unknown>).failed).toEqual(['vitality']);
    expect(third!.metadata).toBeUndefined();
    expect(Object.keys(first!.metadata!)).toEqual(['num_answers', 'quality']);
    const text = nuggetBankText(b);
    expect(text).toContain('"fluency": 5.0');
    expect(text).toContain('"goal_match": 1.0');
    expect((b.metadata!.quality as { coverage: { num_clusters: number } }).coverage.num_clusters).toBe(2);
    // The two judged questions are logged; a rerun calls the model only for the failed one.
    const again = new FakeLlm((r) =>
      r.messages[0]!.content === VITALITY_SYSTEM
        ? 'OKAY'
        : r.messages[0]!.content === PERSONALIZATION_SYSTEM
          ? PERS
          : GQ,
    );
    const second2 = await scoreBankQuality(bank(), { ...ctx, llm: again });
    expect(second2).toMatchObject({ scored: 3, failedCalls: [] });
    expect(again.calls).toHaveLength(3);
  });
});

describe('paraphrases as sub-nuggets (run_on_nugget_bank.py -rop)', () => {
  it('adds each new paraphrase once, scores it, counts it in the bank figures; a rescore adds none', async () => {
    const b = createNuggetBank({ query_id: 'r', title_query: 'r' });
    addNuggets(b, [
      nuggetQuestion({
        query_id: 'r',
        question: 'Where do crows live?',
        answers: ['zoo'],
        aggregator_type: 'OR',
        metadata: { paraphrases: ['Where do the crows live?', 'Where do crows live?', 'How many crows?'] },
      }),
      nuggetQuestion({ query_id: 'r', question: 'How many crows?', answers: ['40'] }),
    ]);
    const subs = paraphraseSubNuggets(b);
    expect(subs.map((n) => n.question)).toEqual(['Where do the crows live?']);
    expect(subs[0]).toEqual({
      question: 'Where do the crows live?',
      question_id: md5('Where do the crows live?'),
      aggregator_type: 'OR',
      query_id: 'r',
      metadata: { parent: 'Where do crows live?' },
    });
    // Already there: returned again for scoring, not added twice.
    expect(paraphraseSubNuggets(b)).toEqual(subs);
    expect((b.nugget_bank!['Where do crows live?'] as NuggetQuestion).sub_nuggets).toHaveLength(1);

    const log = new StepLog<QualityRecord>((r) => stepKey(r.request_id, r.question));
    const llm = new FakeLlm((r) =>
      r.messages[0]!.content === VITALITY_SYSTEM
        ? 'VITAL'
        : r.messages[0]!.content === PERSONALIZATION_SYSTEM
          ? '{"goal_match": 1, "background_match": 1, "role_match": 0, "communication_match": 1, "scope_match": 1, "overall": 5}'
          : '{"fluency": 5, "clarity": 5, "ambiguity": 1, "relevance": 5, "incompleteness": 1, "assumptiveness": 1, "multifaceted": 1, "knowledge_intensiveness": 1, "subjectiveness": 1, "reasoning_intensiveness": 1}',
    );
    const embed = async (texts: string[]) =>
      texts.map((_, i) => Float32Array.from([0, 1, 2].map((k) => (k === i ? 1 : 0))));
    const result = await scoreBankQuality(b, {
      requestId: 'r',
      request: { background: 'b', problemStatement: 'p' },
      llm,
      log,
      creator: { is_human: false },
      embed,
      coverageCosine: 0.8,
      withParaphrases: true,
    });
    expect(result.scored).toBe(3);
    expect(llm.calls).toHaveLength(9);
    const sub = (b.nugget_bank!['Where do crows live?'] as NuggetQuestion).sub_nuggets![0] as NuggetQuestion;
    expect(Object.keys(sub.metadata!)).toEqual(['parent', 'quality']);
    expect((b.metadata!.quality as { coverage: { num_clusters: number } }).coverage.num_clusters).toBe(3);
  });
});

const RELEASED = ['nugget_with_scores_1001.v3.json', 'nugget_with_scores_1013.v3.json'].map((f) =>
  sharedDataPath('nuggets', f),
);

describe('computed criteria against the released ones (../shared/data/nuggets; skipped when absent)', () => {
  beforeEach(
    skipWithoutSharedData(
      ['nuggets', 'nugget_with_scores_1001.v3.json'],
      ['nuggets', 'nugget_with_scores_1013.v3.json'],
    ),
  );
  it('Spearman ρ over the 40 released nuggets: reading level 0.891, complexity 0.612', () => {
    const theirs: { rl: number; cx: number }[] = [];
    const ours: { rl: number; cx: number }[] = [];
    for (const file of RELEASED) {
      for (const [, n] of nuggetEntries(readNuggetFile(file)[0]!.bank)) {
        const q = (n.metadata as { quality: { reading_level: number; complexity: number } }).quality;
        const text = (n as NuggetQuestion).question;
        theirs.push({ rl: q.reading_level, cx: q.complexity });
        ours.push({ rl: readingLevel(text), cx: complexity(text) });
      }
    }
    expect(theirs).toHaveLength(40);
    expect(
      spearman(
        theirs.map((t) => t.rl),
        ours.map((o) => o.rl),
      )!,
    ).toBeCloseTo(0.8908, 4);
    expect(
      spearman(
        theirs.map((t) => t.cx),
        ours.map((o) => o.cx),
      )!,
    ).toBeCloseTo(0.612, 3);
  });
});
