import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem, syntaxErrorOffset } from './json-syntax.js';

function problem(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(error, text);
  }
  throw new Error('parsed');
}

describe('jsonSyntaxProblem', () => {
  it('gives the column of the fault within one row, and what is around it', () => {
    const row = '{"row_id": "a", "question" "How many nodes?"}';
    expect(problem(row)).toMatch(/^column 28: Unexpected string, near `.*question" "How/);
  });

  it('gives line and column in text of several lines', () => {
    expect(problem('{\n  "a": 1,\n  "b": }')).toMatch(/^line 3, column 8: Unexpected token/);
  });

  it('says where a cut row ends', () => {
    expect(problem('{"a": [1, 2')).toMatch(
      /^column 12: the text ends before the JSON value does|^column 12: /,
    );
  });

  it('keeps the message as it is when the text is JSON after all', () => {
    expect(jsonSyntaxProblem(new Error('odd'), 'null')).toBe('odd');
  });
});

describe('syntaxErrorOffset', () => {
  it('agrees with JSON.parse on what is JSON', () => {
    for (const ok of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0'])
      expect(syntaxErrorOffset(ok), ok).toBeNull();
    for (const [bad, at] of [
      ['{"a" 1}', 5],
      ['[1,]', 3],
      ['{"a": 01}', 7],
      ['{"a": "b', 8],
      ['{} x', 3],
      ['{"a": tru}', 9],
      ['', 0],
    ] as const)
      expect(syntaxErrorOffset(bad), bad).toBe(at);
  });
});

describe('syntaxErrorOffset on nesting deeper than its walk can follow', () => {
  it('gives up (null, so the caller keeps V8 message) instead of throwing', () => {
    const text = `${'['.repeat(200_000)}x`;
    expect(() => JSON.parse(text)).toThrow();
    expect(syntaxErrorOffset(text)).toBeNull();
    expect(jsonSyntaxProblem(new SyntaxError('Unexpected token'), text)).toBe('Unexpected token');
  });
});
