import { sequenceRatioAtLeast } from '../text/index.js';

/**
 * difflib's cheap upper bounds of `SequenceMatcher.ratio()`: `real_quick_ratio` (lengths only) and
 * `quick_ratio` (multiset character overlap). Both are ≥ ratio() for the same pair, so a pair whose
 * bound is below a threshold cannot reach it; the metric stays exact while skipping most of the
 * expensive matching-block search.
 */
export function realQuickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * Math.min(a.length, b.length)) / total;
}

// Reused counting table (one slot per UTF-16 unit); only touched slots are reset after each call.
const counts = new Int32Array(65536);
const touched = new Uint16Array(65536);

/**
 * difflib `quick_ratio` counted over UTF-16 units, or -1 when either string has a surrogate
 * (difflib counts code points there, so the caller must not use this bound).
 */
export function quickRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  let nt = 0;
  let astral = false;
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) astral = true;
    if (counts[c] === 0) touched[nt++] = c;
    counts[c]!++;
  }
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) astral = true;
    if (counts[c]! > 0) {
      matches++;
      counts[c]!--;
    }
  }
  for (let i = 0; i < nt; i++) counts[touched[i]!] = 0;
  return astral ? -1 : (2 * matches) / total;
}

// Surrogate presence per string, memoised (the same alternatives meet many quotes).
const surrogates = new Map<string, boolean>();
const SURROGATE = /[\uD800-\uDFFF]/;

function hasSurrogate(text: string): boolean {
  let known = surrogates.get(text);
  if (known === undefined) {
    if (surrogates.size >= 4096) surrogates.clear();
    known = SURROGATE.test(text);
    surrogates.set(text, known);
  }
  return known;
}

/**
 * `ratio(a, b) >= threshold`, evaluating the bounds first. `ratio` must be difflib's ratio on the
 * same strings; without it the decision is `sequenceRatioAtLeast` (the exact early-stopping search).
 */
export function ratioAtLeast(
  a: string,
  b: string,
  threshold: number,
  ratio?: (a: string, b: string) => number,
): boolean {
  if (realQuickRatio(a, b) < threshold) {
    // Lengths in code points can only be closer than in UTF-16 units when surrogates are present.
    if (!hasSurrogate(a) && !hasSurrogate(b)) return false;
  }
  const quick = quickRatio(a, b);
  if (quick >= 0 && quick < threshold) return false;
  return ratio ? ratio(a, b) >= threshold : sequenceRatioAtLeast(a, b, threshold);
}
