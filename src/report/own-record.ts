/**
 * Records keyed by strings from the user's files (question types, domains, metric ids in a status
 * object). A plain object answers `constructor`, `toString` or `__proto__` from Object.prototype
 * when it has no such key of its own, so a question type named "constructor" in one run but not in
 * another crashed the report; these records have no prototype, and `own` reads own keys only.
 */
export function ownRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** `record[key]` when the record has that key of its own, else undefined. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
