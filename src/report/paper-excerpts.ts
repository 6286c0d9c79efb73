import type { Document } from '../core/index.js';
import type { Mark, PaperInfo } from './report-data.js';

/**
 * How much paper text a report embeds: `full` texts, `context` (the paragraphs around each
 * highlighted span, with their offsets, so pages and spans still apply), `none`, or `auto`: full
 * while the papers together stay under `AUTO_FULL_CHARS`, else context. A report must stay small
 * enough to mail; a user who wants whole papers asks for them.
 */
export type PaperTextMode = 'auto' | 'full' | 'context' | 'none';

export const AUTO_FULL_CHARS = 2_500_000;
/** Context around a mark when the document has no paragraph spans. */
const AROUND = 400;
/** A paragraph longer than this is cut to `AROUND` characters either side of the mark. */
const LONG_PARAGRAPH = 1200;
/** Windows closer than this are joined. */
const JOIN_GAP = 160;

/** Resolves `auto` against the total length of the papers a report shows. */
export function resolvePaperText(mode: PaperTextMode, totalChars: number): Exclude<PaperTextMode, 'auto'> {
  if (mode !== 'auto') return mode;
  return totalChars <= AUTO_FULL_CHARS ? 'full' : 'context';
}

/** The paper as embedded: its marks, pages, sections, and the text parts the mode keeps. */
export function paperInfo(doc: Document, marks: Mark[], mode: Exclude<PaperTextMode, 'auto'>): PaperInfo {
  const parts: [number, string][] =
    mode === 'full'
      ? [[0, doc.text]]
      : mode === 'none'
        ? []
        : contextWindows(doc, marks).map(([s, e]) => [s, doc.text.slice(s, e)]);
  return {
    id: doc.id,
    title: doc.title,
    parts,
    excerpted: mode !== 'full',
    length: doc.text.length,
    pages: doc.pages.map((p) => [p.number, p.start, p.end]),
    sections: doc.sections.map((s) => [s.heading, s.start, s.end, s.level]),
    marks,
  };
}

/** The spans of text to keep around the marks: whole paragraphs when known, merged when close. */
export function contextWindows(
  doc: Pick<Document, 'text' | 'paragraphs'>,
  marks: readonly Mark[],
): [number, number][] {
  const paragraphs = [...doc.paragraphs].sort((a, b) => a.start - b.start);
  const windows = marks.map(([start, end]): [number, number] => {
    const short = (p: { start: number; end: number } | undefined) => p && p.end - p.start <= LONG_PARAGRAPH;
    const from = paragraphs.findLast((p) => p.start <= start);
    const to = paragraphs.find((p) => p.end >= end && p.start < end);
    const s = short(from) && from!.end > start - AROUND ? from!.start : snap(doc.text, start - AROUND, -1);
    const e = short(to) && to!.start < end + AROUND ? to!.end : snap(doc.text, end + AROUND, 1);
    return [Math.min(s, start), Math.max(e, end)];
  });
  windows.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of windows) {
    const last = merged.at(-1);
    if (last && w[0] <= last[1] + JOIN_GAP) last[1] = Math.max(last[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  return merged;
}

/** Moves an offset to the nearest whitespace outward (so a window does not cut a word). */
function snap(text: string, at: number, direction: 1 | -1): number {
  let i = Math.max(0, Math.min(text.length, at));
  for (let k = 0; k < 60 && i > 0 && i < text.length && !/\s/.test(text[i]!); k++) i += direction;
  return i;
}
