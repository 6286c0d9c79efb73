import type { Section } from './document.js';

/** The separator of nested section labels, as QASPER writes them (`Approach ::: Data`). */
export const SECTION_PATH_SEPARATOR = ':::';

// "3", "3.1", "3.1.", "IV.", "A.", "A.1", "A.1." before the words of a heading.
const NUMBERING = /^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.(?:\d+\.?)*|[A-Z](?:\.\d+)+\.?)\s+/;

/**
 * One heading reduced to what a label cites: numbering removed, case folded, punctuation at the
 * ends and runs of spaces dropped ("3.1 Results." → "results").
 */
export function normalizeSectionLabel(label: string): string {
  return label
    .normalize('NFKC')
    .trim()
    .replace(NUMBERING, '')
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/^[\s.:;,\-–—]+|[\s.:;,\-–—]+$/g, '');
}

/** Splits a label into its normalised nested parts (`"A ::: 2 B"` → `["a", "b"]`). */
export function sectionLabelParts(label: string): string[] {
  return label
    .split(SECTION_PATH_SEPARATOR)
    .map(normalizeSectionLabel)
    .filter((p) => p.length > 0);
}

/**
 * True when `label` names the section whose heading path is `path` (outermost first). Matching is
 * case- and numbering-insensitive (`"3 Results"` = `"Results"`); a nested label `A ::: B` matches
 * a section B that lies inside A (the parts must appear in order along the path, ending at the
 * section itself; intermediate levels may be skipped).
 */
export function sectionLabelMatches(label: string, path: readonly string[]): boolean {
  const parts = sectionLabelParts(label);
  const names = path.map(normalizeSectionLabel);
  if (parts.length === 0 || names.length === 0) return false;
  if (parts.at(-1) !== names.at(-1)) return false;
  let i = names.length - 2;
  for (let p = parts.length - 2; p >= 0; p--) {
    while (i >= 0 && names[i] !== parts[p]) i--;
    if (i < 0) return false;
    i--;
  }
  return true;
}

/**
 * The sections a label names, in document order. When the nested label matches nothing (sources
 * such as the QASPER Markdown flatten nesting), its last part alone is tried, unless `exact`.
 */
export function findSectionsByLabel<S extends Pick<Section, 'path'>>(
  sections: readonly S[],
  label: string,
  options: { exact?: boolean } = {},
): S[] {
  const hits = sections.filter((s) => sectionLabelMatches(label, s.path));
  if (hits.length > 0 || options.exact) return hits;
  const last = sectionLabelParts(label).at(-1);
  if (last === undefined || sectionLabelParts(label).length < 2) return [];
  return sections.filter((s) => normalizeSectionLabel(s.path.at(-1) ?? '') === last);
}
