import { describe, expect, it } from 'vitest';
import * as citegeist from '../index.js';

describe('package entry exposes the stats API', () => {
  it.each([
    'spearman',
    'pearson',
    'kendallTauB',
    'kendallTauC',
    'bootstrapCI',
    'bootstrapPairedCI',
    'rankData',
    'pairedRandomizationTest',
    'pairedTTest',
    'mean',
    'median',
    'summarize',
    'krippendorffAlpha',
    'fitPartialCreditModel',
    'createRandom',
  ])('%s', (name) => {
    expect(typeof (citegeist as Record<string, unknown>)[name]).toBe('function');
  });
  // SciPy 1.17.1 spearmanr([1, 2, 2, 3], [1, 3, 2, 4])
  it('spearman from the entry computes (ties averaged)', () => {
    expect(citegeist.spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(0.9486832980505138, 12);
  });
});
