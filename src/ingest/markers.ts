/**
 * Footnote and citation markers inside sentences, found in a document's running text (abstract,
 * body, captions, footnotes) and linked to the paragraphs they point to. Any source format can use
 * it; the PDF reader does.
 *
 * - footnote: a run of superscript digits attached to the preceding word or punctuation
 *   ("performance,¹⁴ except"), or one of * ∗ † ‡ § ¶ attached to a word and followed by a space or
 *   punctuation; linked to the footnote paragraph that starts with the same label (the one on the
 *   marker's page when several do). A raised run that reads as mathematics is an exponent and no
 *   marker ("c⁴", "10²⁵", "χ²", "sin² θ", "(p² + m²)¹/²", "v∗"): one after a digit, a lone letter, a
 *   Greek letter, a function name or a bracket holding no word, unless a footnote with its label is
 *   on the same page.
 * - citation: a bracketed list of numbers and ranges ("[3]", "[4, 7–9]"), linked to the bibliography
 *   entries labelled with those numbers; or a parenthesised or bracketed text holding a year
 *   ("(Lee et al., 2020; Kim, 2019a)", "(2020)" after "Lee et al."), linked to the entries whose
 *   first author's surname and year match.
 */
import type { Document, Marker, Paragraph } from '../core/index.js';

const RUNNING = new Set(['body', 'abstract', 'caption', 'footnote']);
const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const FOOTNOTE =
  /(?<=[\p{L}\p{N}.,;:!?)’”"'\]])(?<![⁰¹²³⁴⁵⁶⁷⁸⁹])(?:[⁰¹²³⁴⁵⁶⁷⁸⁹]+(?:[,⁻–][⁰¹²³⁴⁵⁶⁷⁸⁹]+)*|[*∗†‡§¶]{1,3}(?=[\s.,;:)]|$))/gu;
const NUMERIC = /\[\s*\d{1,3}(?:\s*[–—-]\s*\d{1,3})?(?:\s*[,;]\s*\d{1,3}(?:\s*[–—-]\s*\d{1,3})?)*\s*\]/g;
const PARENTHESISED = /[([]([^()[\]]{1,400})[)\]]/g;
const YEAR = /\b((?:1[6-9]|20)\d\d)([a-z]?)\b/;
const SURNAME = /([\p{Lu}][\p{L}'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[\p{Lu}][\p{L}'’-]+)?[\s,]*$/u;

/** The word (or closing bracket with its inside) a raised run is attached to, and what follows it. */
const WORD_BEFORE = /(?:\([^()]{0,40}\)|[\p{L}\p{N}]*)[.,;:!?’”"'\]]?$/u;
const MATH_FUNCTION = /^(?:sin|cos|tan|cot|sec|csc|sinh|cosh|tanh|log|ln|exp|lg|arcsin|arccos|arctan)$/;

/**
 * Whether a raised run reads as an exponent of what it is attached to rather than as a footnote
 * marker: after a digit ("10⁹"), a lone letter ("c⁴", "v∗"), a word with a Greek letter ("dθ²"), a
 * function name ("sin²") or a bracket without a word of three letters ("(4/11)¹/³"); a fraction
 * exponent ("¹/²"). After sentence punctuation or a word ("model⁶", "(NELL)⁷") it is a marker.
 */
function readsAsExponent(before: string, run: string, after: string): boolean {
  if (/^\/[⁰¹²³⁴⁵⁶⁷⁸⁹]/.test(after)) return true;
  const attached = WORD_BEFORE.exec(before)?.[0] ?? '';
  if (attached === '' || /[.,;:!?’”"'\]]$/.test(attached)) return false;
  if (attached.startsWith('(')) return !/\p{Script=Latin}{2}/u.test(attached);
  if (/\p{N}$/u.test(attached) || /\p{Script=Greek}/u.test(attached)) return true;
  // A lone letter, or two lower-case ones for digits ("sn²"; "AI¹" is an acronym's marker).
  if (attached.length === 1 || (/^\p{Ll}{2}$/u.test(attached) && /^[⁰¹²³⁴⁵⁶⁷⁸⁹]/.test(run))) return true;
  return MATH_FUNCTION.test(attached);
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const fromSup = (s: string) => [...s].map((c) => (SUP.includes(c) ? String(SUP.indexOf(c)) : c)).join('');

interface Entry {
  id: string;
  label: number | null;
  head: string;
}

function expandNumbers(inside: string): number[] {
  const out: number[] = [];
  for (const part of inside.split(/[,;]/)) {
    const m = /(\d{1,3})\s*(?:[–—-]\s*(\d{1,3}))?/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    for (let n = a; n <= Math.min(b, a + 50); n++) out.push(n);
  }
  return out;
}

/** Entries whose first author is `surname` and whose year is `year` (with its letter, if any). */
function byAuthorYear(entries: readonly Entry[], surname: string, year: string, letter: string): string[] {
  const s = fold(surname);
  const hits = entries.filter((e) => e.head.slice(0, 60).includes(s) && e.head.includes(year));
  if (letter) {
    const exact = hits.filter((e) => e.head.includes(`${year}${letter}`));
    if (exact.length > 0) return exact.map((e) => e.id);
  }
  return hits.length === 1 ? [hits[0]!.id] : hits.slice(0, 1).map((e) => e.id);
}

/** Author–year citation parts of a bracket's inside, each with the surname it names. */
function authorYearTargets(inside: string, before: string, entries: readonly Entry[]): string[] | null {
  const parts = inside.split(';');
  if (!parts.some((p) => YEAR.test(p))) return null;
  const targets: string[] = [];
  for (const part of parts) {
    const year = YEAR.exec(part);
    if (!year) continue;
    const names = part.slice(0, year.index).replace(/^\s*(?:e\.g\.|i\.e\.|see|cf\.)[,\s]*/i, '');
    const surname = SURNAME.exec(names)?.[1] ?? (names.trim() === '' ? SURNAME.exec(before)?.[1] : undefined);
    if (!surname && names.trim() !== '') return null; // "(n = 2019)" and the like are no citations
    if (surname) targets.push(...byAuthorYear(entries, surname, year[1]!, year[2]!));
  }
  return targets;
}

/** The markers of a document's running text (see the module comment). */
export function findMarkers(doc: Document): Marker[] {
  const entries: Entry[] = doc.paragraphs
    .filter((p) => p.kind === 'reference')
    .map((p) => {
      const text = doc.text.slice(p.start, p.end);
      const label = /^\s*\[?(\d{1,3})[\].]/.exec(text);
      return { id: p.id, label: label ? Number(label[1]) : null, head: fold(text.slice(0, 300)) };
    });
  const labelled = new Map(entries.filter((e) => e.label !== null).map((e) => [e.label!, e.id]));
  const footnotes = new Map<string, Paragraph[]>();
  for (const p of doc.paragraphs) {
    if (p.kind !== 'footnote') continue;
    const label = /^\s*([⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d{1,3}|[*∗†‡§¶]{1,3})/.exec(doc.text.slice(p.start, p.end));
    if (label) footnotes.set(fromSup(label[1]!), [...(footnotes.get(fromSup(label[1]!)) ?? []), p]);
  }
  const markers: Marker[] = [];
  for (const p of doc.paragraphs) {
    if (!RUNNING.has(p.kind)) continue;
    const text = doc.text.slice(p.start, p.end);
    const footnoteLike = /[⁰¹²³⁴⁵⁶⁷⁸⁹*∗†‡§¶]/.test(text);
    for (const m of footnoteLike ? text.matchAll(FOOTNOTE) : []) {
      if (p.kind === 'footnote' && m.index === 0) continue;
      const withLabel = footnotes.get(fromSup(m[0])) ?? [];
      const samePage = withLabel.find((f) => f.page !== null && f.page === p.page);
      const end = m.index + m[0].length;
      if (
        !samePage &&
        readsAsExponent(text.slice(Math.max(0, m.index - 48), m.index), m[0], text.slice(end, end + 2))
      )
        continue;
      const target = (samePage ?? withLabel[0])?.id;
      markers.push({
        start: p.start + m.index,
        end: p.start + m.index + m[0].length,
        kind: 'footnote',
        targets: target ? [target] : [],
      });
    }
    const numeric = new Set<number>();
    for (const m of text.includes('[') ? text.matchAll(NUMERIC) : []) {
      numeric.add(m.index);
      const targets = expandNumbers(m[0].slice(1, -1))
        .map((n) => labelled.get(n))
        .filter((t): t is string => t !== undefined);
      markers.push({
        start: p.start + m.index,
        end: p.start + m.index + m[0].length,
        kind: 'citation',
        targets,
      });
    }
    for (const m of text.matchAll(PARENTHESISED)) {
      if (numeric.has(m.index)) continue;
      const targets = authorYearTargets(m[1]!, text.slice(Math.max(0, m.index - 80), m.index), entries);
      if (targets === null) continue;
      markers.push({
        start: p.start + m.index,
        end: p.start + m.index + m[0].length,
        kind: 'citation',
        targets: [...new Set(targets)],
      });
    }
  }
  return markers.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * The document with its markers found (replacing any it had). Markers lie inside paragraphs of a
 * valid document by construction, so the document is not validated again.
 */
export function withMarkers(doc: Document): Document {
  return { ...doc, markers: findMarkers(doc) };
}
