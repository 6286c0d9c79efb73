import { describe, expect, it } from 'vitest';
import { formatScore, renderTable } from './text-table.js';

describe('renderTable', () => {
  it('aligns columns and right-aligns numbers', () => {
    const table = renderTable(
      [{ header: 'model' }, { header: 'score', align: 'right' }],
      [
        ['extractive', '0.750'],
        ['openai:gpt-4.1-mini', '1.000'],
      ],
    );
    expect(table.split('\n')).toEqual([
      'model                score',
      '-------------------  -----',
      'extractive           0.750',
      'openai:gpt-4.1-mini  1.000',
    ]);
  });

  it('can leave out the rule under the header', () => {
    expect(renderTable([{ header: 'a' }, { header: 'bb' }], [['xyz', '1']], { rule: false })).toBe(
      'a    bb\nxyz  1',
    );
  });

  it('renders a header-only table when there are no rows', () => {
    expect(renderTable([{ header: 'a' }], [])).toBe('a\n-');
  });
});

describe('formatScore', () => {
  it.each([
    [0.12345, '0.123'],
    [1, '1.000'],
    [0, '0.000'],
    [null, 'n/a'],
    [undefined, 'n/a'],
    [Number.NaN, 'n/a'],
  ])('%s → %s', (value, text) => {
    expect(formatScore(value)).toBe(text);
  });
});
