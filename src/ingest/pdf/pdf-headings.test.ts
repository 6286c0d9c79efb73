import { describe, expect, it } from 'vitest';
import { CAPTION, numberingOf } from './pdf-headings.js';

describe('heading numbering', () => {
  it.each([
    ['1 Introduction', 'arabic', 1],
    ['2.1 Node Types', 'arabic', 2],
    ['3.4.1. Details', 'arabic', 3],
    ['IV. CONCLUSIONS', 'roman', 1],
    ['A.1 Hyperparameters', 'letter', 2],
    ['B Human evaluation details', 'letter', 1],
    ['Appendix C: Proofs', 'appendix', 1],
    ['Appendix. Model specification', 'appendix', 1],
    ['APPENDIX: PROOFS', 'appendix', 1],
  ])('%s is %s numbering of depth %d', (text, kind, depth) => {
    expect(numberingOf(text)).toMatchObject({ kind, depth });
  });
  it.each(['Introduction', '2019 was a year', 'I think so', '45 Results', 'Appendix. see below'])(
    '%s has none',
    (text) => {
      expect(numberingOf(text)).toBeNull();
    },
  );
});

describe('caption labels', () => {
  it.each([
    'Figure 3: Results.',
    'Fig. 2. Setup',
    'Table 1 | Data',
    'Box 1. Terms',
    'Video 1. The editorial process.',
    'Appendix 2—Video 1. The editorial process.',
    'Figure 3—figure supplement 1. More data.',
    'Table 1—source data 1. Raw values.',
  ])('%s is a caption', (text) => expect(CAPTION.test(text)).toBe(true));
  it.each([
    'Figure 3 shows the results',
    'figure 3. lower case',
    'Appendix 2 Methods',
    'source data 1. alone',
  ])('%s is none', (text) => expect(CAPTION.test(text)).toBe(false));
});
