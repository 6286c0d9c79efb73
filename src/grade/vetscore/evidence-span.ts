import type { Excerpt } from './segment.js';

/** Where a supporting quote sits: `[start, end)` in the excerpt with this key. */
export interface EvidenceSpan {
  key: string;
  start: number;
  end: number;
}

const FOLD: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '–': '-',
  '—': '-',
  '−': '-',
  '\u00a0': ' ',
};

/** Lowercased, quote/dash-folded, whitespace-collapsed text with a map back to original offsets. */
function normalise(text: string): { norm: string; map: number[] } {
  let norm = '';
  const map: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const ch = FOLD[text[i] ?? ''] ?? (text[i] ?? '').toLowerCase();
    if (/\s/.test(ch)) {
      space = norm.length > 0;
      continue;
    }
    if (space) {
      norm += ' ';
      map.push(i);
      space = false;
    }
    for (const c of ch) {
      norm += c;
      map.push(i);
    }
  }
  return { norm, map };
}

/**
 * Locates a judge's evidence quote in the segment's excerpts (case, whitespace, curly quotes and
 * dashes ignored; edge quotes, ellipses and punctuation of the quote stripped). Null when absent.
 */
export function locateEvidence(quote: string, excerpts: Excerpt[]): EvidenceSpan | null {
  const q = normalise(quote.replace(/^[\s"'“”‘’.,;:…]+|[\s"'“”‘’.,;:…]+$/g, '')).norm;
  if (q.length === 0) return null;
  for (const excerpt of excerpts) {
    const { norm, map } = normalise(excerpt.text);
    const at = norm.indexOf(q);
    if (at === -1) continue;
    const last = map[at + q.length - 1] ?? 0;
    return { key: excerpt.key, start: map[at] ?? 0, end: last + 1 };
  }
  return null;
}
