import { describe, expect, it } from 'vitest';
import { canonicalJson } from './run-manifest.js';

/** The definition canonicalJson must equal: JSON.stringify of a deep copy with sorted keys. */
function reference(value: unknown): string {
  const sortDeep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortDeep);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sortDeep(value));
}

describe('canonicalJson', () => {
  it.each([
    null,
    0,
    -0,
    1.5e300,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    'a "quoted" \\ line\nbreak \u2028 \ud800',
    true,
    [],
    {},
    [1, undefined, () => 1, Symbol('s'), null],
    // biome-ignore lint/suspicious/noSparseArray: a hole is written as null
    [, 1],
    { b: 1, a: { d: [3, { z: 1, y: undefined, x: () => 0 }], c: 'é' }, '': 0, __proto__x: 1 },
    { date: new Date(0), map: new Map([[1, 2]]), boxed: new String('ab') },
    { row_id: 'r1', citations: [{ key: '1', quote: 'q' }], latency_ms: null, cached: false },
  ])('equals JSON.stringify of a key-sorted copy (%#)', (value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('sorts keys by UTF-16 code units at every level', () => {
    expect(canonicalJson({ b: { z: 1, Z: 2 }, a: [{ é: 1, e: 2 }] })).toBe(
      '{"a":[{"e":2,"é":1}],"b":{"Z":2,"z":1}}',
    );
  });
});
