import type { Document, DocumentMeta } from '../../core/index.js';
import { DocumentBuilder } from '../document-builder.js';
import type { IngestContext } from '../ingest-context.js';
import { licenceName } from './licence.js';
import {
  child,
  children,
  find,
  findAll,
  parseXml,
  requireRoot,
  textOf,
  type XmlElement,
} from './xml-tree.js';

/** Heading level from GROBID's section number (`n="2.1"` → 2); unnumbered → 1. */
function levelOf(head: XmlElement | undefined): number {
  const n = head?.attrs.n?.replace(/\.$/, '');
  return n && /^[\dA-Z]+(\.\d+)*$/.test(n) ? n.split('.').length : 1;
}

function writeDiv(b: DocumentBuilder, div: XmlElement, kind: 'body' | 'abstract'): void {
  const head = child(div, 'head');
  if (head) {
    const n = head.attrs.n;
    b.heading(n ? `${n} ${textOf(head)}` : textOf(head), levelOf(head));
  }
  for (const c of children(div)) {
    if (c.name === 'p') b.paragraph(textOf(c), kind);
    else if (c.name === 'formula') b.paragraph(textOf(c), 'formula');
    else if (c.name === 'list') for (const item of children(c, 'item')) b.paragraph(textOf(item), kind);
    else if (c.name === 'div') writeDiv(b, c, kind);
    else if (c.name === 'figure') writeFigure(b, c);
    else if (c.name === 'note') b.paragraph(textOf(c), 'footnote');
  }
}

function writeFigure(b: DocumentBuilder, fig: XmlElement): void {
  const head = textOf(child(fig, 'head'));
  const label = textOf(child(fig, 'label'));
  const desc = textOf(child(fig, 'figDesc'));
  const name = head || label ? `${head}${label && !head.includes(label) ? ` ${label}` : ''}` : '';
  b.paragraph([name, desc].filter(Boolean).join(': '), 'caption');
}

function meta(header: XmlElement | undefined, file: string): DocumentMeta {
  const out: DocumentMeta = { file };
  const doi = find(header, (e) => e.name === 'idno' && e.attrs.type?.toUpperCase() === 'DOI');
  if (doi && textOf(doi)) out.doi = textOf(doi);
  const licence = find(header, (e) => e.name === 'licence');
  const name = licence && licenceName(licence.attrs.target, textOf(licence));
  if (name) out.licence = name;
  const analytic = find(header, (e) => e.name === 'analytic');
  const authors = children(analytic, 'author')
    .map((a) => child(a, 'persName'))
    .filter((p): p is XmlElement => p !== undefined)
    .map((p) => [...children(p, 'forename'), ...children(p, 'surname')].map((e) => textOf(e)).join(' '));
  if (authors.length > 0) out.authors = authors;
  const date = find(header, (e) => e.name === 'date' && e.attrs.type === 'published');
  const year = Number((date?.attrs.when ?? textOf(date)).slice(0, 4));
  if (Number.isInteger(year) && year > 0) out.year = year;
  return out;
}

/** A GROBID TEI file (`.tei.xml`) → Document: divs with numbered heads, figures, footnotes. */
export function teiToDocument(xml: string, ctx: IngestContext): Document {
  const root = requireRoot(parseXml(xml, ctx.file), ['TEI', 'teiCorpus'], 'TEI', ctx.file);
  const header = child(root, 'teiHeader');
  const title =
    textOf(find(header, (e) => e.name === 'title' && e.attrs.type === 'main')) ||
    textOf(find(header, (e) => e.name === 'title'));
  const b = new DocumentBuilder();
  if (title) b.paragraph(title, 'title');
  const m = meta(header, ctx.file);
  const abstract = find(header, (e) => e.name === 'abstract');
  if (abstract && textOf(abstract)) {
    b.heading('Abstract', 1);
    const divs = children(abstract, 'div');
    for (const div of divs.length > 0 ? divs : [abstract])
      writeDiv(b, { ...div, children: children(div) }, 'abstract');
    m.abstract = textOf(abstract);
  }
  const text = child(root, 'text');
  const body = child(text, 'body');
  for (const c of children(body)) {
    if (c.name === 'div') writeDiv(b, c, 'body');
    else if (c.name === 'figure') writeFigure(b, c);
    else if (c.name === 'note') b.paragraph(textOf(c), 'footnote');
    else if (c.name === 'p') b.paragraph(textOf(c), 'body');
  }
  const back = child(text, 'back');
  for (const div of children(back, 'div')) {
    if (div.attrs.type === 'references') {
      b.heading('References', 1);
      for (const bibl of findAll(div, (e) => e.name === 'biblStruct')) {
        const raw = find(bibl, (e) => e.name === 'note' && e.attrs.type === 'raw_reference');
        b.paragraph(raw ? textOf(raw) : textOf(bibl), 'reference');
      }
    } else {
      if (!find(div, (e) => e.name === 'head') && div.attrs.type)
        b.heading(div.attrs.type === 'acknowledgement' ? 'Acknowledgements' : div.attrs.type, 1);
      writeDiv(b, div, 'body');
    }
  }
  return b.build({ id: ctx.id, title, source: 'tei', meta: m });
}
