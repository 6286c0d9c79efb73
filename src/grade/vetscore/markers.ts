/** One citation marker group in an answer, e.g. `[1, 2]`, `[^1][^2]`, `[1-3]`. */
export interface MarkerGroup {
  start: number;
  end: number;
  /** The cited source keys, in order, without duplicates (`^` stripped, ranges expanded). */
  keys: string[];
  /** Parts that could not be read as keys (e.g. a reversed or huge range). */
  problems: string[];
}

const ITEM = String.raw`\^?\d+(?:\s*[-–]\s*\^?\d+)?`;
const MARKER = String.raw`\[\s*${ITEM}(?:\s*,\s*${ITEM})*\s*\]`;
/** Adjacent markers (`[1][2]`, `[^1], [^2]`) form one group. */
const GROUP = new RegExp(String.raw`${MARKER}(?:[ \t]*,?[ \t]*${MARKER})*`, 'g');
const MAX_RANGE = 50;

/** A source key as sources and markers spell it: `^1`, `[^1]`, ` 1 ` → `1`. */
export function normaliseKey(key: string): string {
  return key.trim().replace(/^\[/, '').replace(/\]$/, '').trim().replace(/^\^/, '').trim();
}

/** Finds every citation marker group in `text`. */
export function findMarkerGroups(text: string): MarkerGroup[] {
  const groups: MarkerGroup[] = [];
  for (const match of text.matchAll(GROUP)) {
    const start = match.index;
    const keys: string[] = [];
    const problems: string[] = [];
    for (const item of match[0].matchAll(new RegExp(ITEM, 'g'))) {
      readItem(item[0], keys, problems);
    }
    groups.push({ start, end: start + match[0].length, keys: [...new Set(keys)], problems });
  }
  return groups;
}

function readItem(item: string, keys: string[], problems: string[]): void {
  const [a, b] = item.split(/[-–]/).map((part) => Number(normaliseKey(part)));
  if (b === undefined || a === undefined) {
    keys.push(String(a));
    return;
  }
  if (b < a || b - a > MAX_RANGE) {
    problems.push(`citation range "${item}" is reversed or spans more than ${MAX_RANGE} sources`);
    return;
  }
  for (let k = a; k <= b; k++) keys.push(String(k));
}
