/**
 * Parity with Google's rouge-score 0.1.2: every expected value of its own tests that applies to
 * the default tokenizer and newline-split ROUGE-Lsum. Line numbers refer to the package's files
 * (rouge_score/rouge_scorer_test.py, tokenize_test.py, tokenizers_test.py, scoring_test.py).
 * assertAlmostEqual(x, y) means |x − y| < 0.5e-7; with `places=p` (or 5 as the third argument),
 * |x − y| < 0.5·10^-p; the same tolerances are used here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrapCI } from '../../stats/index.js';
import { rougeReferenceValues } from '../../testing/rouge-reference-cases.js';
import { porterStem } from './porter-stemmer.js';
import { RougeScorer } from './rouge.js';
import { backtrackLcs, findUnion, lcsLength, lcsTable, summaryLevelLcs, unionLcs } from './rouge-lcs.js';
import { rougeTokenize } from './rouge-tokenize.js';

const FIXTURES = join(import.meta.dirname, '__fixtures__');

function almost(actual: number | undefined, expected: number, places = 7): void {
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThan(0.5 * 10 ** -places);
}

function prf(scorer: RougeScorer, type: string, target: string, prediction: string) {
  const s = scorer.score(target, prediction)[type as 'rouge1'];
  if (!s) throw new Error(`no ${type} score`);
  return s;
}

describe('rouge_scorer_test.py', () => {
  // Every value those tests assert on RougeScorer.score / score_multi (expected.json, with lines).
  const values = rougeReferenceValues();

  it(`reproduces all ${values.length} expected values of its score tests`, () => {
    expect(values.length).toBe(84);
    expect(values.filter((v) => !v.ok)).toEqual([]);
  });

  it.each(['rougen', 'rouge0', 'rouge10'])('testInvalidRougeTypes (l. 45–49): %s is refused', (type) => {
    expect(() => new RougeScorer([type])).toThrow(/rouge/);
  });

  it.each(['rouge1', 'rouge9', 'rougeL', 'rougeLsum'])('testValidRougeTypes (l. 51–55): %s', (type) => {
    expect(Object.keys(new RougeScorer([type]).score('testing one two', 'testing'))).toEqual([type]);
  });

  it('testMultipleRougeTypes (l. 107–110): only the requested types', () => {
    expect(
      Object.keys(new RougeScorer(['rouge1', 'rougeL']).score('testing one two', 'testing one')).sort(),
    ).toEqual(['rouge1', 'rougeL']);
  });

  it('testLcsTable (l. 213–232)', () => {
    const ref = [1, 2, 3, 4, 5];
    const c1 = [2, 5, 3, 4];
    let t = lcsTable(ref, c1);
    expect(t[ref.length]![c1.length]).toBe(3);
    expect(backtrackLcs(t, ref, c1)).toEqual([1, 2, 3]);
    expect(backtrackLcs(t, ref, c1).map((i) => ref[i])).toEqual([2, 3, 4]);
    const c2 = [8, 9];
    t = lcsTable(ref, c2);
    expect(t[ref.length]![c2.length]).toBe(0);
    expect(backtrackLcs(t, ref, c2)).toEqual([]);
  });

  it('testUnionLcs (l. 234–250)', () => {
    expect(
      findUnion([
        [0, 1],
        [0, 2, 4],
      ]),
    ).toEqual([0, 1, 2, 4]);
    expect(
      findUnion([
        [0, 2, 4],
        [0, 1],
      ]),
    ).toEqual([0, 1, 2, 4]);
    const ref = [1, 2, 3, 4, 5];
    expect(
      unionLcs(ref, [
        [1, 2, 6, 7, 8],
        [1, 3, 8, 9, 5],
      ]),
    ).toEqual([1, 2, 3, 5]);
  });

  it('testSummaryLevelLcs (l. 252–268)', () => {
    const score = summaryLevelLcs(
      [[1, 2, 3, 4, 5]],
      [
        [1, 2, 6, 7, 8],
        [1, 3, 8, 9, 5],
      ],
    );
    expect(score.recall).toBe(0.8);
    expect(score.precision).toBe(0.4);
    almost(score.fmeasure, 0.5333, 3);
    // Tokenizer may drop all tokens, resulting in empty candidate list.
    expect(summaryLevelLcs([['reference']], [[]]).recall).toBe(0);
  });
});

describe('tokenize_test.py and tokenizers_test.py', () => {
  it('test_give_me_a_name (tokenize_test.py l. 27–31)', () => {
    expect(rougeTokenize('one Two three')).toEqual(['one', 'two', 'three']);
    expect(rougeTokenize('one\n Two \nthree')).toEqual(['one', 'two', 'three']);
  });

  it('test_default_tokenizer_no_stemmer_init (tokenizers_test.py l. 23–28)', () => {
    expect(new RougeScorer(['rouge1']).tokenize('this is a test')).toEqual(['this', 'is', 'a', 'test']);
  });

  it('test_default_tokenizer_with_stemmer_init (tokenizers_test.py l. 30–35)', () => {
    expect(new RougeScorer(['rouge1'], { stemmer: true }).tokenize('the friends had a meeting')).toEqual([
      'the',
      'friend',
      'had',
      'a',
      'meet',
    ]);
  });
});

describe('scoring_test.py', () => {
  it('testConsistentPercentiles (l. 68–84): the same interval from src/stats bootstrapCI', () => {
    // BootstrapAggregator(confidence_interval=0.9) over three rouge1 scores; expected (low, mid, high)
    // with delta 1e-8. Our summary reports the sample mean as the estimate (the package's mid is the
    // median of the bootstrap means; both are 2/3 · … here) and NumPy-style percentiles as bounds.
    const scores = [
      { precision: 1, recall: 1 / 3, fmeasure: 1 / 2 },
      { precision: 0, recall: 0, fmeasure: 0 },
      { precision: 1, recall: 1, fmeasure: 1 },
    ];
    const expected = {
      precision: [1 / 3, 2 / 3, 3 / 3],
      recall: [1 / 9, 4 / 9, 7 / 9],
      fmeasure: [1 / 6, 3 / 6, 5 / 6],
    };
    for (const key of ['precision', 'recall', 'fmeasure'] as const) {
      const ci = bootstrapCI(
        scores.map((s) => s[key]),
        undefined,
        { confidence: 0.9, iterations: 1000, seed: 123 },
      );
      const [low, mid, high] = expected[key];
      expect(Math.abs(ci.lower! - low!)).toBeLessThan(1e-8);
      expect(Math.abs(ci.estimate! - mid!)).toBeLessThan(1e-8);
      expect(Math.abs(ci.upper! - high!)).toBeLessThan(1e-8);
    }
  });
});

describe('NLTK PorterStemmer (the stemmer rouge-score applies)', () => {
  const rows = readFileSync(join(FIXTURES, 'nltk-porter.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t') as [string, string]);

  it(`stems all ${rows.length} words of the NLTK-written word list as NLTK does`, () => {
    expect(rows.length).toBeGreaterThan(8000);
    const wrong = rows.filter(([word, stem]) => porterStem(word) !== stem);
    expect(wrong).toEqual([]);
  });

  it.each([
    ['dying', 'die'],
    ['flies', 'fli'],
    ['dies', 'die'],
    ['generously', 'gener'],
    ['skies', 'sky'],
    ['archaeology', 'archaeolog'],
    ['oed', 'o'],
    ['ab', 'ab'],
  ])('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe('ROUGE edge cases', () => {
  it('lcsLength equals the full table corner and reuses a row buffer', () => {
    const a = [1, 2, 3, 2, 1, 4, 2];
    const b = [2, 1, 2, 4, 3, 2];
    const row = new Int32Array(2);
    expect(lcsLength(a, b, row)).toBe(lcsTable(a, b)[a.length]![b.length]);
    expect(lcsLength(a, b, new Int32Array(64))).toBe(lcsLength(a, b));
  });

  it('rouge3 with fewer tokens than n scores 0, not NaN', () => {
    const s = prf(new RougeScorer(['rouge3']), 'rouge3', 'one two', 'one two');
    expect(s).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it('scoreMulti keeps the whole score of the best-F target, the first on ties', () => {
    const scorer = new RougeScorer(['rouge1']);
    const best = scorer.scoreMulti(['a b c d', 'a x', 'a y'], 'a b')!.rouge1!;
    expect(best).toEqual(scorer.score('a b c d', 'a b').rouge1);
    const tie = scorer.scoreMulti(['a x', 'a y'], 'a')!.rouge1!;
    expect(tie).toEqual(scorer.score('a x', 'a').rouge1);
    expect(scorer.scoreMulti([], 'a')).toBeNull();
  });

  it('non-ASCII letters separate tokens as in the package', () => {
    expect(rougeTokenize('Naïve Bayes — 3.5% F1')).toEqual(['na', 've', 'bayes', '3', '5', 'f1']);
  });
});
