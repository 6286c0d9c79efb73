/**
 * The shapes `../shared/tools/score_ingest.py` reads, made from a citegeist Document, and the
 * parsing of its batch output.
 *
 * - `scorerJson(doc)`: `{ sections: [{ heading, paragraphs }], furniture }`. Sections are the
 *   document's sections in reading order (nested ones flattened, each with only its own
 *   paragraphs); body and abstract paragraphs are `paragraphs`; the title, front matter, captions,
 *   footnotes, table bodies, formulas, code and the page furniture are `furniture`; the
 *   bibliography is the section it is in (the scorer leaves sections headed References or
 *   Bibliography out of the body). Two conventions of the gold files are followed: the abstract is
 *   front matter, not a section (its paragraphs go first, under no heading, and a printed
 *   "Abstract" label is not a heading); a bibliography printed without a heading (whose section
 *   heading is not in the text) is furniture, as no heading can be reported for it.
 *   `furnitureKinds` (ignored by the scorer) gives each furniture entry's paragraph or furniture
 *   kind, for `scripts/ingest-ceiling.py`. A footnote marker the Document records is written apart
 *   from the word it is attached to ("model⁶" as "model ⁶"): it is its own token in the Document
 *   (and in the quote matcher's tokens), where the scorer's NFKD would make one token "model6" of
 *   the two; the gold files write it so (GROBID "model 6", S2ORC "library 3"). Exponents, which
 *   are no markers, stay with their base ("c⁴").
 * - `readingText(doc)`: the text a reader of the body sees, for olmOCR-bench text tests: headings
 *   and paragraphs of every kind except page furniture, in reading order.
 */
import type { Document, Paragraph } from '../src/core/index.js';

export interface ScorerSection {
  heading: string | null;
  paragraphs: string[];
}

/** Paragraph kinds that count as running text for the scorer; every other kind is furniture. */
const BODY_KINDS = new Set(['body', 'abstract', 'list', 'reference']);

/** A paragraph's text with its footnote markers set apart from the word before them. */
function paragraphText(doc: Document, p: Paragraph, footnoteStarts: ReadonlySet<number>): string {
  let out = '';
  let at = p.start;
  for (let i = p.start + 1; i < p.end; i++) {
    if (!footnoteStarts.has(i) || !/[\p{L}\p{N}]/u.test(doc.text[i - 1]!)) continue;
    out += `${doc.text.slice(at, i)} `;
    at = i;
  }
  return out + doc.text.slice(at, p.end);
}

export function scorerJson(doc: Document): {
  sections: ScorerSection[];
  furniture: string[];
  furnitureKinds: string[];
} {
  const lead: ScorerSection = { heading: null, paragraphs: [] };
  const sections: ScorerSection[] = [lead];
  const byId = new Map<string, ScorerSection>();
  const unprinted = new Set<string>();
  for (const s of doc.sections) {
    if (/^abstract[.:]?$/i.test(s.heading)) byId.set(s.id, lead);
    else if (!doc.text.startsWith(s.heading, s.start)) unprinted.add(s.id);
    else {
      const out = { heading: s.heading, paragraphs: [] };
      byId.set(s.id, out);
      sections.push(out);
    }
  }
  const furniture: string[] = [];
  const furnitureKinds: string[] = [];
  const footnoteStarts = new Set(doc.markers.filter((m) => m.kind === 'footnote').map((m) => m.start));
  for (const p of doc.paragraphs) {
    const text = paragraphText(doc, p, footnoteStarts);
    const section = p.sectionId ? byId.get(p.sectionId) : undefined;
    if (!BODY_KINDS.has(p.kind) || (p.kind === 'reference' && p.sectionId && unprinted.has(p.sectionId))) {
      furniture.push(text);
      furnitureKinds.push(p.kind);
    } else if (p.kind === 'abstract') lead.paragraphs.push(text);
    else (section ?? lead).paragraphs.push(text);
  }
  for (const f of doc.furniture) {
    furniture.push(f.text);
    furnitureKinds.push(f.kind);
  }
  return {
    sections: sections.filter((s) => s.heading !== null || s.paragraphs.length > 0),
    furniture,
    furnitureKinds,
  };
}

export function readingText(doc: Document): string {
  return doc.text;
}

/** One row of the scorer's `--batch` output. */
export interface ScoreRow {
  file: string;
  headingF1: number | null;
  bodyRecall: number | null;
  bodyPrecision: number | null;
  contiguous: number | null;
  kendallTau: number | null;
  leakage: number | null;
}

/** Parses `score_ingest.py --batch` TSV output (header, one row per file, MACRO-AVG). */
export function parseBatch(tsv: string): { rows: ScoreRow[]; macro: ScoreRow | null } {
  const rows: ScoreRow[] = [];
  let macro: ScoreRow | null = null;
  for (const line of tsv.trim().split('\n').slice(1)) {
    const cells = line.split('\t');
    const num = (i: number) => {
      const v = cells[i];
      return v === undefined || v === '' ? null : Number(v);
    };
    const row: ScoreRow = {
      file: cells[0] ?? '',
      headingF1: num(1),
      bodyRecall: num(2),
      bodyPrecision: num(3),
      contiguous: num(4),
      kendallTau: num(5),
      leakage: num(6),
    };
    if (row.file === 'MACRO-AVG') macro = row;
    else rows.push(row);
  }
  return { rows, macro };
}
