import type { Citation } from '../core/index.js';

/** What the evidence-block parser found in a model reply. */
export interface ParsedReply {
  /** The answer text before the evidence block, with its citation markers. */
  answer: string;
  /** Citations in block order; each key once (the first occurrence wins), each with a non-empty quote. */
  citations: Citation[];
  /** Keys used by markers in the answer (`[^1]`, `[^2, ^3]`), in order of first use. */
  markers: string[];
  /** Marker keys that have no citation in the block. */
  danglingMarkers: string[];
  /** Keys that appeared more than once in the block (later occurrences ignored). */
  duplicateKeys: string[];
  /** Citations dropped because they had no quote text. */
  emptyCitations: string[];
  /** True when an evidence block was found (with or without its end marker). */
  hasEvidenceBlock: boolean;
  /** True when the block had no `---END-EVIDENCE---` (e.g. a truncated or streamed reply). */
  truncated: boolean;
}

const START = /^\s*-{3,}\s*EVIDENCE\s*-{3,}\s*$/i;
const END = /^\s*-{3,}\s*END[-_ ]?EVIDENCE\s*-{3,}\s*$/i;
const CITE = /^\s*@cite\s*\[\s*\^?\s*(\d+)\s*\]\s*:?\s*(.*)$/i;
const FENCE = /^\s*```[\w-]*\s*$/;
const MARKER = /\[\^\s*\d+(?:\s*,\s*\^?\s*\d+)*\s*\]/g;
const QUOTE_CHARS = '"\'“”„‟‘’‚‛«»`';

/**
 * Parses a reply written under the citation contract. It never throws: any string (empty,
 * truncated mid-block, chatty, with duplicate keys or stray text) gives a result.
 * - The answer is the text before `---EVIDENCE---`; without that marker, the text before the first
 *   `@cite[n]` line; without either, the whole reply (then there are no citations).
 * - In the block, a `@cite[n]` line starts citation n (text after the `]` on the same line counts);
 *   the following non-empty lines up to the next `@cite` line or `---END-EVIDENCE---` are its quote,
 *   joined by single spaces and stripped of surrounding quote marks. Lines before the first `@cite`,
 *   code fences and anything after the end marker are ignored.
 * - Duplicate keys: the first citation with that key is kept (markers can only point at one quote);
 *   the duplicates are listed in `duplicateKeys`. A citation without text is dropped.
 */
export function parseEvidenceReply(reply: string): ParsedReply {
  const lines = String(reply ?? '').split(/\r?\n/);
  let start = lines.findIndex((l) => START.test(l));
  const hasStart = start >= 0;
  if (!hasStart) start = lines.findIndex((l) => CITE.test(l));
  const answerLines = start >= 0 ? lines.slice(0, start) : lines;
  const blockLines = start >= 0 ? lines.slice(hasStart ? start + 1 : start) : [];
  const answer = dropPartialMarker(answerLines).join('\n').trim();
  const block = readBlock(blockLines);
  const markers = markerKeys(answer);
  const keys = new Set(block.citations.map((c) => c.key));
  return {
    answer,
    citations: block.citations,
    markers,
    danglingMarkers: markers.filter((k) => !keys.has(k)),
    duplicateKeys: block.duplicateKeys,
    emptyCitations: block.emptyCitations,
    hasEvidenceBlock: start >= 0,
    truncated: start >= 0 && !block.ended,
  };
}

function readBlock(lines: string[]) {
  const citations: Citation[] = [];
  const duplicateKeys: string[] = [];
  const emptyCitations: string[] = [];
  let current: { key: string; parts: string[] } | null = null;
  let ended = false;
  const seen = new Set<string>();
  const flush = () => {
    if (!current) return;
    const quote = stripQuoteMarks(current.parts.join(' ').replace(/\s+/g, ' ').trim());
    if (seen.has(current.key)) {
      if (!duplicateKeys.includes(current.key)) duplicateKeys.push(current.key);
    } else if (quote === '') {
      emptyCitations.push(current.key);
    } else {
      seen.add(current.key);
      citations.push({ key: current.key, quote });
    }
    current = null;
  };
  for (const line of lines) {
    if (END.test(line)) {
      ended = true;
      break;
    }
    const cite = CITE.exec(line);
    if (cite) {
      flush();
      current = { key: String(Number(cite[1])), parts: [] };
      if (cite[2]?.trim()) current.parts.push(cite[2].trim());
    } else if (current && line.trim() !== '' && !FENCE.test(line) && !START.test(line)) {
      current.parts.push(line.trim());
    }
  }
  flush();
  return { citations, duplicateKeys, emptyCitations, ended };
}

/** Removes one layer of matching-or-typographic quote marks from both ends. */
export function stripQuoteMarks(text: string): string {
  let t = text.trim();
  while (t.length > 0 && QUOTE_CHARS.includes(t[0] ?? '')) t = t.slice(1).trimStart();
  while (t.length > 0 && QUOTE_CHARS.includes(t.at(-1) ?? '')) t = t.slice(0, -1).trimEnd();
  return t;
}

/** A streamed reply can end inside the start marker ("…\n---EVID"): drop that partial line. */
function dropPartialMarker(lines: string[]): string[] {
  const last = lines.at(-1)?.trim() ?? '';
  const partial = last.length >= 3 && /^-{3,}\s*E?V?I?D?E?N?C?E?\s*-*$/i.test(last);
  return partial ? lines.slice(0, -1) : lines;
}

/** The citation keys of the markers in an answer, in order of first use. */
export function markerKeys(answer: string): string[] {
  const keys: string[] = [];
  for (const m of answer.matchAll(MARKER)) {
    for (const d of m[0].matchAll(/\d+/g)) {
      const key = String(Number(d[0]));
      if (!keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}

/** The answer without its citation markers (for judges and QASPER predictions). */
export function stripMarkers(answer: string): string {
  return answer
    .replace(MARKER, '')
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
