import type { Document } from '../../core/index.js';
import { splitSentences } from '../../text/index.js';

/**
 * A retrievable unit: one paragraph of a document (or a sentence-aligned piece of a long one).
 * Ids are `<docId>#<n>` with n the 0-based passage number within the document, so a passage run
 * rolls up to documents by cutting at the last `#` (see `rollUpRun`).
 */
export interface Passage {
  id: string;
  docId: string;
  text: string;
  /** `[start, end)` in `Document.text`. */
  start: number;
  end: number;
  /** Section headings from the outermost down; [] when the passage is outside any section. */
  sectionPath: string[];
  page: number | null;
  title: string;
  /**
   * The text to index when it differs from `text`: footnote and citation markers (`doc.markers`)
   * blanked out, so "[12]" or "(Lee et al., 2020)" neither matches nor dilutes a query.
   */
  indexText?: string;
}

export interface ChunkOptions {
  /** Maximum whitespace tokens per passage; longer paragraphs are split at sentence boundaries (default 256). */
  maxTokens?: number;
  /**
   * Paragraph kinds to skip (default: the title paragraph, which every passage carries anyway, and
   * bibliography entries, which would otherwise answer any query naming a cited work).
   */
  skipKinds?: readonly string[];
  /** Keep bibliography entries (kind `reference`) even when `skipKinds` is the default. */
  includeReferences?: boolean;
}

const DEFAULT_SKIP = ['title', 'reference'];

/** `text` (from offset `start` of the document) with the document's markers in it blanked out. */
function withoutMarkers(doc: Document, text: string, start: number): string | undefined {
  let out: string | undefined;
  for (const m of doc.markers) {
    if (m.end <= start || m.start >= start + text.length) continue;
    out ??= text;
    const a = Math.max(0, m.start - start);
    const b = Math.min(text.length, m.end - start);
    out = out.slice(0, a) + ' '.repeat(b - a) + out.slice(b);
  }
  return out;
}

const countTokens = (s: string) => (s.match(/\S+/g) ?? []).length;

/** Splits a document into passages along its paragraphs (blank-line blocks when it has none). */
export function chunkDocument(doc: Document, options: ChunkOptions = {}): Passage[] {
  const maxTokens = options.maxTokens ?? 256;
  const skip = new Set(options.skipKinds ?? DEFAULT_SKIP);
  if (options.includeReferences) skip.delete('reference');
  const blocks = doc.paragraphs.length
    ? doc.paragraphs.filter((p) => !skip.has(p.kind))
    : blankLineBlocks(doc.text).map((b) => ({ ...b, sectionId: null, page: null }));
  const passages: Passage[] = [];
  for (const block of blocks) {
    for (const piece of splitToBudget(doc.text, block.start, block.end, maxTokens)) {
      const text = doc.text.slice(piece.start, piece.end);
      if (!/\S/.test(text)) continue;
      const indexText = withoutMarkers(doc, text, piece.start);
      passages.push({
        ...(indexText === undefined ? {} : { indexText }),
        id: `${doc.id}#${passages.length}`,
        docId: doc.id,
        text,
        start: piece.start,
        end: piece.end,
        sectionPath: sectionPathOf(doc, block.sectionId, piece.start),
        page: block.page ?? pageOf(doc, piece.start),
        title: doc.title,
      });
    }
  }
  return passages;
}

function blankLineBlocks(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const re = /\S[\s\S]*?(?=\n[ \t]*\n|$)/g;
  for (const m of text.matchAll(re)) out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  return out;
}

/** Sentence-aligned pieces of `[start, end)` with at most `maxTokens` tokens each (a longer sentence is cut by tokens). */
function splitToBudget(
  text: string,
  start: number,
  end: number,
  maxTokens: number,
): { start: number; end: number }[] {
  const body = text.slice(start, end);
  if (countTokens(body) <= maxTokens) return [{ start, end }];
  const units: { start: number; end: number }[] = [];
  for (const s of splitSentences(body)) {
    if (countTokens(body.slice(s.start, s.end)) <= maxTokens) units.push(s);
    else units.push(...tokenWindows(body, s.start, s.end, maxTokens));
  }
  const pieces: { start: number; end: number }[] = [];
  let cur: { start: number; end: number; tokens: number } | null = null;
  for (const u of units) {
    const tokens = countTokens(body.slice(u.start, u.end));
    if (cur && cur.tokens + tokens <= maxTokens) {
      cur.end = u.end;
      cur.tokens += tokens;
    } else {
      if (cur) pieces.push({ start: start + cur.start, end: start + cur.end });
      cur = { ...u, tokens };
    }
  }
  if (cur) pieces.push({ start: start + cur.start, end: start + cur.end });
  return pieces;
}

function tokenWindows(body: string, start: number, end: number, maxTokens: number) {
  const tokens = [...body.slice(start, end).matchAll(/\S+/g)];
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < tokens.length; i += maxTokens) {
    const first = tokens[i] as RegExpMatchArray;
    const last = tokens[Math.min(i + maxTokens, tokens.length) - 1] as RegExpMatchArray;
    out.push({ start: start + (first.index ?? 0), end: start + (last.index ?? 0) + last[0].length });
  }
  return out;
}

function sectionPathOf(doc: Document, sectionId: string | null, offset: number): string[] {
  const byId = sectionId ? doc.sections.find((s) => s.id === sectionId) : undefined;
  if (byId) return byId.path;
  let best: Document['sections'][number] | undefined;
  for (const s of doc.sections) {
    if (offset >= s.start && offset < s.end && (!best || s.level >= best.level)) best = s;
  }
  return best?.path ?? [];
}

function pageOf(doc: Document, offset: number): number | null {
  for (const p of doc.pages) if (offset >= p.start && offset < p.end) return p.number;
  return null;
}
