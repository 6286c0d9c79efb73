import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';
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

describe('escapeHtml', () => {
  it('escapes every character that could open markup or close an attribute', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });
});
