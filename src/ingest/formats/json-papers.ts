import { CitegeistError, type Document, quoteValue } from '../../core/index.js';
import { DocumentBuilder } from '../document-builder.js';
import type { IngestContext } from '../ingest-context.js';

const SEPARATOR = ':::';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Opens the headings of a nested section name (`A ::: B`) that are not already open. */
class NestedHeadings {
  private open: string[] = [];
  constructor(private readonly b: DocumentBuilder) {}
  enter(name: string): void {
    const parts = name
      .split(SEPARATOR)
      .map((p) => p.trim())
      .filter(Boolean);
    let same = 0;
    while (same < parts.length && same < this.open.length && this.open[same] === parts[same]) same++;
    if (same === parts.length && same === this.open.length) return;
    if (same === parts.length) same--; // the same name again after a subsection: reopen it
    for (let i = Math.max(same, 0); i < parts.length; i++) this.b.heading(parts[i]!, i + 1);
    this.open = parts;
  }
}

/** The papers of a QASPER native JSON file: `{ "<paper id>": { title, abstract, full_text } }`. */
export function isQasper(value: unknown): value is Json {
  if (!isObject(value)) return false;
  if (Array.isArray(value.full_text)) return true;
  const first = Object.values(value)[0];
  return isObject(first) && Array.isArray(first.full_text);
}

function qasperPaper(id: string, paper: Json, file: string): Document {
  const b = new DocumentBuilder();
  const title = str(paper.title);
  if (title) b.paragraph(title, 'title');
  const abstract = str(paper.abstract);
  if (abstract) {
    b.heading('Abstract', 1);
    b.paragraph(abstract, 'abstract');
  }
  const headings = new NestedHeadings(b);
  if (!Array.isArray(paper.full_text)) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${file}: paper ${quoteValue(id)} has no "full_text" list (got ${quoteValue(paper.full_text)}).`,
      'QASPER papers need "full_text": [{ "section_name": …, "paragraphs": [ … ] }].',
    );
  }
  for (const [i, section] of paper.full_text.entries()) {
    if (!isObject(section) || !Array.isArray(section.paragraphs)) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${file}: paper ${quoteValue(id)}, full_text[${i}] is not { section_name, paragraphs[] }: ${quoteValue(section)}.`,
        'Correct or remove that section.',
      );
    }
    const name = str(section.section_name);
    if (name) headings.enter(name);
    for (const p of section.paragraphs) b.paragraph(str(p), 'body');
  }
  const meta = abstract ? { file, abstract } : { file };
  return b.build({ id, title, source: 'json', meta });
}

/** QASPER native JSON → one Document per paper (ids are the QASPER paper ids). */
export function qasperToDocuments(value: Json, ctx: IngestContext): Document[] {
  if (Array.isArray(value.full_text)) return [qasperPaper(str(value.id) || ctx.id, value, ctx.file)];
  return Object.entries(value)
    .filter(([, paper]) => isObject(paper))
    .map(([id, paper]) => qasperPaper(id, paper as Json, ctx.file));
}

/** An S2ORC paper: `{ paper_id, title, pdf_parse: { abstract[], body_text[] } }`. */
export function isS2orc(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isObject(first) && isObject(first.pdf_parse) && Array.isArray(first.pdf_parse.body_text);
}

function s2orcPaper(paper: Json, id: string, file: string): Document {
  const parse = paper.pdf_parse as Json;
  const b = new DocumentBuilder();
  const title = str(paper.title);
  if (title) b.paragraph(title, 'title');
  const abstract = Array.isArray(parse.abstract) ? parse.abstract.filter(isObject) : [];
  if (abstract.length > 0) {
    b.heading('Abstract', 1);
    for (const p of abstract) b.paragraph(str(p.text), 'abstract');
  }
  let current = '';
  const body = (parse.body_text as unknown[]).filter(isObject);
  for (const p of body) {
    const num = str(p.sec_num);
    const name = [num, str(p.section)].filter(Boolean).join(' ');
    if (name && name !== current) {
      b.heading(name, num ? num.replace(/\.$/, '').split('.').length : 1);
      current = name;
    }
    b.paragraph(str(p.text), 'body');
  }
  const meta: Document['meta'] = { file };
  if (str(paper.abstract)) meta.abstract = str(paper.abstract);
  if (str(paper.doi)) meta.doi = str(paper.doi);
  const year = Number(paper.year);
  if (Number.isInteger(year) && year > 0) meta.year = year;
  return b.build({ id, title, source: 'json', meta });
}

/**
 * S2ORC JSON → Documents. A file with one paper gives one document with the file's id (its stem:
 * S2ORC `paper_id`s are often bare numbers); a list of papers gives one document per paper with its
 * `paper_id` (or `<stem>-<n>` when it has none).
 */
export function s2orcToDocuments(value: unknown, ctx: IngestContext): Document[] {
  if (!Array.isArray(value)) return [s2orcPaper(value as Json, ctx.id, ctx.file)];
  return value
    .filter(isObject)
    .map((p, i) => s2orcPaper(p, str(p.paper_id) || `${ctx.id}-${i + 1}`, ctx.file));
}
