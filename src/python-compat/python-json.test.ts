import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath, skipWithoutSharedData } from '../testing/index.js';
import {
  formatPythonFloat,
  markFloat,
  orderedEntries,
  orderedObject,
  parsePythonJson,
  pythonJsonString,
  stringifyPythonJson,
} from './python-json.js';

describe('formatPythonFloat (CPython repr of a float)', () => {
  it.each([
    [1, '1.0'],
    [263, '263.0'],
    [0.1, '0.1'],
    [0.7200000000000001, '0.7200000000000001'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1.5e16, '1.5e+16'],
    [1e16, '1e+16'],
    [1234567890123456, '1234567890123456.0'],
    [-2.5e-7, '-2.5e-07'],
    [1e22, '1e+22'],
    [-0, '-0.0'],
    [0, '0.0'],
    [Number.NaN, 'nan'],
    [Number.POSITIVE_INFINITY, 'inf'],
  ])('%s → %s', (x, expected) => {
    expect(formatPythonFloat(x)).toBe(expected);
  });
});

describe('parsePythonJson / stringifyPythonJson', () => {
  it('keeps floats written as floats and ints as ints', () => {
    const text = '{"a": 1.0, "b": 1, "c": [2.50, 3, 1e3], "d": -0.0}';
    expect(stringifyPythonJson(parsePythonJson(text))).toBe(
      '{"a": 1.0, "b": 1, "c": [2.5, 3, 1000.0], "d": -0.0}',
    );
  });

  it('keeps the written order of keys that look like array indices (JavaScript would move them first)', () => {
    const value = parsePythonJson('{"about 20,000": 1, "2020": 2, "11": 3}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['11', '2020', 'about 20,000']);
    expect(orderedEntries(value).map(([k]) => k)).toEqual(['about 20,000', '2020', '11']);
    expect(stringifyPythonJson(value)).toBe('{"about 20,000": 1, "2020": 2, "11": 3}');
    const built = orderedObject([
      ['z', 1],
      ['7', 2],
    ]);
    expect(stringifyPythonJson(built)).toBe('{"z": 1, "7": 2}');
  });

  it('writes json.dumps indent=2 layout, with ensure_ascii escapes by default', () => {
    const value = { q: 'Japan’s “rate”\u0007\n', empty: {}, list: [], n: [1, { x: null }] };
    expect(stringifyPythonJson(value, { indent: 2 })).toBe(
      '{\n  "q": "Japan\\u2019s \\u201crate\\u201d\\u0007\\n",\n  "empty": {},\n  "list": [],\n  "n": [\n    1,\n    {\n      "x": null\n    }\n  ]\n}',
    );
    expect(pythonJsonString('é\u007f', false)).toBe('"é\u007f"');
    expect(pythonJsonString('é\u007f')).toBe('"\\u00e9\\u007f"');
  });

  it('reads NaN and Infinity as Python writes them, and names the line and column of an error', () => {
    expect(parsePythonJson('[NaN, Infinity, -Infinity]')).toEqual([Number.NaN, Infinity, -Infinity]);
    expect(() => parsePythonJson('{\n "a": tru\n}', 'bank.json')).toThrow(
      /bank\.json is not valid JSON at line 2, column 7/,
    );
    expect(() => parsePythonJson('{"a": 1} x')).toThrow(/unexpected text after/);
  });

  it('marks a built value as float', () => {
    const row = { v: 1 };
    markFloat(row, 'v');
    expect(stringifyPythonJson(row)).toBe('{"v": 1.0}');
    expect(stringifyPythonJson({ ...row })).toBe('{"v": 1}');
  });

  const dir = sharedDataPath('nuggets');
  it('writes the published DoGMaTiQ nugget banks back byte for byte (../shared/data/nuggets)', (ctx) => {
    skipWithoutSharedData(['nuggets'])(ctx);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const text = readFileSync(`${dir}/${f}`, 'utf8');
      expect(stringifyPythonJson(parsePythonJson(text, f), { indent: 2 }), f).toBe(text);
    }
  });
});
