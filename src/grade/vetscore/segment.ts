import { findMarkerGroups } from './markers.js';

/** One cited excerpt a segment carries. */
export interface Excerpt {
  key: string;
  text: string;
}

/** One answer segment (METHODS §3.1): a span of the answer and the excerpts its markers cite. */
export interface Segment {
  index: number;
  /** The segment text as written, markers included, trimmed. */
  text: string;
  /** `[start, end)` of `text` in the answer. */
  start: number;
  end: number;
  /** Every key its markers cite, known or not, in order. */
  keys: string[];
  /** The excerpts of the cited keys that exist in the sources (none when it has no markers). */
  excerpts: Excerpt[];
  /** Markers citing unknown sources, unreadable ranges: recorded, never fatal. */
  problems: string[];
  /** The answer text before the segment back to (and including) the last Markdown header. */
  context: string;
}

const HEADER = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** Punctuation and closing brackets that belong to the sentence a marker group ends. */
const TRAILING = /^[ \t]*[.,;:!?)"'’”\]]+/;
const MAX_CONTEXT = 8000;

/**
 * Splits an answer into segments: at blank lines, and after each citation marker group (with the
 * punctuation that closes its sentence). Markdown header lines are not segments; they bound the
 * context the decomposer sees. Pieces without letters or digits are dropped.
 */
export function segmentAnswer(answer: string, sources: Record<string, string>): Segment[] {
  const headers: number[] = [];
  const pieces: { start: number; end: number }[] = [];
  for (const block of blocks(answer)) {
    let cursor = block.start;
    for (const line of lines(answer, block.start, block.end)) {
      if (!HEADER.test(answer.slice(line.start, line.end))) continue;
      splitAtMarkers(answer, cursor, line.start, pieces);
      headers.push(line.start);
      cursor = line.end;
    }
    splitAtMarkers(answer, cursor, block.end, pieces);
  }
  const segments: Segment[] = [];
  for (const piece of pieces) {
    const raw = answer.slice(piece.start, piece.end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (!/[\p{L}\p{N}]/u.test(text.replace(/\[[^\]]*\]/g, ''))) continue;
    const start = piece.start + lead;
    const header = headers.filter((h) => h < start).at(-1) ?? 0;
    const context = answer.slice(Math.max(header, start - MAX_CONTEXT), start).trim();
    segments.push({
      index: segments.length,
      text,
      start,
      end: start + text.length,
      context,
      ...cite(text, sources),
    });
  }
  return segments;
}

function cite(text: string, sources: Record<string, string>) {
  const keys: string[] = [];
  const problems: string[] = [];
  for (const group of findMarkerGroups(text)) {
    keys.push(...group.keys);
    problems.push(...group.problems);
  }
  const unique = [...new Set(keys)];
  const excerpts: Excerpt[] = [];
  for (const key of unique) {
    const excerpt = sources[key];
    if (excerpt === undefined) problems.push(`marker cites unknown source "${key}"`);
    else excerpts.push({ key, text: excerpt });
  }
  return { keys: unique, excerpts, problems };
}

function splitAtMarkers(text: string, start: number, end: number, out: { start: number; end: number }[]) {
  let cursor = start;
  for (const group of findMarkerGroups(text.slice(start, end))) {
    let cut = start + group.end;
    const trailing = TRAILING.exec(text.slice(cut, end));
    if (trailing) cut += trailing[0].length;
    if (cut <= cursor) continue;
    out.push({ start: cursor, end: cut });
    cursor = cut;
  }
  if (cursor < end) out.push({ start: cursor, end });
}

function* blocks(text: string): Generator<{ start: number; end: number }> {
  const blank = /\r?\n[ \t]*\r?\n(?:[ \t]*\r?\n)*/g;
  let start = 0;
  for (const match of text.matchAll(blank)) {
    yield { start, end: match.index };
    start = match.index + match[0].length;
  }
  yield { start, end: text.length };
}

function* lines(text: string, start: number, end: number): Generator<{ start: number; end: number }> {
  let s = start;
  while (s < end) {
    const nl = text.indexOf('\n', s);
    const e = nl === -1 || nl > end ? end : nl;
    yield { start: s, end: e };
    s = e + 1;
  }
}
