import { describe, expect, it } from 'vitest';
import { isEmptyQuote, locateEvidence, QuoteLocator } from './locate-evidence.js';

const sources = [
  { key: '1', text: 'Cats lack glucuronidation.' },
  {
    key: '2',
    text: 'Meloxicam is given at 0.1  mg/kg\nonce daily \u2014 after a loading dose of 0.2 mg/kg.',
  },
  // A PDF-style excerpt: a page number and a running header between two lines of one sentence.
  {
    key: '3',
    text: 'The drug is cleared by the\n12\nJournal of Feline Medicine 2019\nkidneys within 24 hours [4].',
  },
];

describe('locateEvidence (strict quote matcher, shared normaliser)', () => {
  it.each([
    ['case and whitespace', '0.1 mg/kg once daily', '2', '0.1  mg/kg\nonce daily', 'exact'],
    [
      'edge quotes and period stripped',
      '"Meloxicam is given at 0.1 mg/kg."',
      '2',
      'Meloxicam is given at 0.1  mg/kg',
      'exact',
    ],
    ['dash folded', 'daily - after a LOADING dose', '2', 'daily \u2014 after a loading dose', 'exact'],
    [
      'ellipsis at the edge stripped',
      '\u2026cats lack glucuronidation\u2026',
      '1',
      'Cats lack glucuronidation',
      'exact',
    ],
    [
      'gapped over PDF furniture',
      'The drug is cleared by the kidneys within 24 hours',
      '3',
      'The drug is cleared by the\n12\nJournal of Feline Medicine 2019\nkidneys within 24 hours',
      'gapped',
    ],
  ])('%s', (_name, quote, key, text, rule) => {
    const found = locateEvidence(quote, sources);
    expect(found.status).toBe('located');
    if (found.status !== 'located') return;
    expect(found.span).toMatchObject({ key, text, rule });
    const source = sources.find((s) => s.key === key)!.text;
    expect(source.slice(found.span.start, found.span.end)).toBe(text);
  });

  it('a gapped match reports each matched run apart from the furniture', () => {
    const found = locateEvidence('The drug is cleared by the kidneys within 24 hours', sources);
    if (found.status !== 'located') throw new Error('not located');
    const source = sources[2]!.text;
    expect(found.span.spans.map((s) => source.slice(s.start, s.end))).toEqual([
      'The drug is cleared by the',
      'kidneys within 24 hours',
    ]);
  });

  it('an unlocated quote is unverified, with the nearest passage and its similarity', () => {
    const found = locateEvidence('Meloxicam is given at 0.5 mg/kg once daily', sources);
    expect(found.status).toBe('unverified');
    if (found.status !== 'unverified') return;
    expect(found.nearest?.key).toBe('2');
    expect(found.nearest?.text).toContain('Meloxicam is given at 0.1');
    expect(found.nearest?.similarity).toBeGreaterThan(0.7);
    expect(found.nearest?.similarity).toBeLessThan(1);
  });

  it('a paraphrase or a dropped word does not count (strict mode)', () => {
    expect(locateEvidence('cats cannot glucuronidate', sources).status).toBe('unverified');
    expect(locateEvidence('The drug is cleared by the kidneys within hours', sources).status).toBe(
      'unverified',
    );
  });

  it('a quote with no word in any source has no nearest passage', () => {
    expect(locateEvidence('zebra quantum', sources)).toEqual({ status: 'unverified', nearest: null });
  });

  it.each([null, undefined, '', '   ', '""', '\u201c\u201d', ' ... ', '\u2026'])(
    '%j is no-quote',
    (quote) => {
      expect(locateEvidence(quote, sources)).toEqual({ status: 'no-quote' });
      expect(isEmptyQuote(quote)).toBe(true);
    },
  );

  it('a quote without sources is unverified', () => {
    expect(locateEvidence('x', [])).toEqual({ status: 'unverified', nearest: null });
  });

  it('the first source that holds the quote wins', () => {
    const found = locateEvidence('0.2 mg/kg', [
      { key: 'a', text: 'nothing here' },
      { key: 'b', text: 'dose 0.2 mg/kg' },
      { key: 'c', text: '0.2 mg/kg again' },
    ]);
    expect(found).toMatchObject({ status: 'located', span: { key: 'b', start: 5, end: 14 } });
  });

  it('a locator prepares each text once and stays within its capacity', () => {
    const locator = new QuoteLocator(2);
    for (let i = 0; i < 5; i++) {
      expect(locator.locate(`word${i}`, [{ key: String(i), text: `a word${i} b` }]).status).toBe('located');
    }
    expect(locator.locate('word4', [{ key: '4', text: 'a word4 b' }]).status).toBe('located');
  });
});
