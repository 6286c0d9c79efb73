/** The typed arrays the growable tables of the analyzers and index writers are made of. */
type GrowableArray = Int32Array | Uint32Array | Uint16Array | Float64Array;

/**
 * `array` when it holds at least `length` elements, else a new array of the same type, twice as
 * long (or `length`, if more), starting with a copy of `array`; the rest is 0. The one growth
 * rule of the word tables, term counts, postings and term matrices built element by element.
 */
export function withRoom<T extends GrowableArray>(array: T, length: number): T {
  if (array.length >= length) return array;
  const grown = new (array.constructor as new (n: number) => T)(Math.max(2 * array.length, length));
  (grown as Int32Array).set(array as Int32Array);
  return grown;
}
