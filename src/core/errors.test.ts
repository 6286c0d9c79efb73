import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CitegeistError, describeLocation } from './errors.js';
import { parseWith } from './parse.js';

describe('CitegeistError.where', () => {
  it('keeps the location as data and the cause apart from it', () => {
    const cause = new Error('inner');
    const error = new CitegeistError('INVALID_INPUT', 'p', 'f', {
      cause,
      where: { file: 'runs.jsonl', line: 12, row: 'q7', field: 'answer' },
    });
    expect(error.where).toEqual({ file: 'runs.jsonl', line: 12, row: 'q7', field: 'answer' });
    expect(error.cause).toBe(cause);
    expect(new CitegeistError('INVALID_INPUT', 'p', 'f').where).toBeUndefined();
    expect('cause' in new CitegeistError('INVALID_INPUT', 'p', 'f', { where: { line: 1 } })).toBe(false);
  });

  it.each([
    [{ file: 'a.jsonl', line: 3, row: 'q1', field: 'quote' }, 'a.jsonl line 3, row "q1", field "quote"'],
    [{ file: 'a.csv' }, 'a.csv'],
    [{ line: 4 }, 'line 4'],
    [{ row: 2, field: 'x' }, 'row 2, field "x"'],
  ])('describes %j as %s', (where, text) => {
    expect(describeLocation(where)).toBe(text);
  });
});

describe('parseWith', () => {
  it('puts the file, line and first bad field of a zod failure in where', () => {
    const Row = z.object({ row_id: z.string(), citations: z.array(z.object({ quote: z.string() })) });
    const bad = { row_id: 'q1', citations: [{ quote: 7 }] };
    expect(() => parseWith(Row, bad, { file: 'run.jsonl', line: 4, what: 'run row' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        where: { file: 'run.jsonl', line: 4, field: 'citations.0.quote' },
      }),
    );
  });
});
