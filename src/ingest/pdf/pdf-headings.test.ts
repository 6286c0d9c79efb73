import { describe, expect, it } from 'vitest';
import { numberingOf } from './pdf-headings.js';

describe('heading numbering', () => {
  it.each([
    ['1 Introduction', 'arabic', 1],
    ['2.1 Node Types', 'arabic', 2],
    ['3.4.1. Details', 'arabic', 3],
    ['IV. CONCLUSIONS', 'roman', 1],
    ['A.1 Hyperparameters', 'letter', 2],
    ['B Human evaluation details', 'letter', 1],
    ['Appendix C: Proofs', 'appendix', 1],
  ])('%s is %s numbering of depth %d', (text, kind, depth) => {
    expect(numberingOf(text)).toMatchObject({ kind, depth });
  });
  it.each(['Introduction', '2019 was a year', 'I think so', '45 Results'])('%s has none', (text) => {
    expect(numberingOf(text)).toBeNull();
  });
});
