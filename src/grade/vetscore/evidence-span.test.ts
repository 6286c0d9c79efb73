import { describe, expect, it } from 'vitest';
import { locateEvidence } from './evidence-span.js';

const excerpts = [
  { key: '1', text: 'Cats lack glucuronidation.' },
  { key: '2', text: 'Meloxicam is given at 0.1  mg/kg\nonce daily — after a loading dose of 0.2 mg/kg.' },
];

describe('locateEvidence', () => {
  it.each([
    ['0.1 mg/kg once daily', '2', '0.1  mg/kg\nonce daily'],
    ['"Meloxicam is given at 0.1 mg/kg."', '2', 'Meloxicam is given at 0.1  mg/kg'],
    ['daily - after a LOADING dose', '2', 'daily — after a loading dose'],
    ['cats lack glucuronidation', '1', 'Cats lack glucuronidation'],
  ])('%s', (quote, key, found) => {
    const span = locateEvidence(quote, excerpts);
    const excerpt = excerpts.find((e) => e.key === key)?.text ?? '';
    expect(span?.key).toBe(key);
    expect(excerpt.slice(span?.start, span?.end)).toBe(found);
  });

  it.each(['', '  "" ', 'not in any excerpt'])('%j → null', (quote) => {
    expect(locateEvidence(quote, excerpts)).toBeNull();
  });

  it('returns null without excerpts', () => expect(locateEvidence('x', [])).toBeNull());
});
