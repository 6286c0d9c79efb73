/**
 * Python's `int(value)` for the values a JSON reply can hold, or null where Python raises
 * (ValueError, TypeError, OverflowError): the released code parses the canonical question's
 * index with `int(idx_val) - 1` (manestay/dogmatiq `step2_merge_paraphrases.py`, `get_canonical`).
 */
export function pythonInt(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value !== 'string') return null;
  // int(" 2 "), int("+3"), int("1_000") are accepted; int("2.0") and int("two") are not.
  const m = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(value);
  if (!m) return null;
  const n = Number(m[2]!.replaceAll('_', ''));
  return m[1] === '-' ? -n : n;
}

/** The position `seq[i]` reads in a sequence of `length`, with Python's negative indexing; null where Python raises IndexError. */
export function pythonPosition(length: number, i: number): number | null {
  const at = i < 0 ? length + i : i;
  return at >= 0 && at < length ? at : null;
}
