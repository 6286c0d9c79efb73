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

/** Elements inside a paragraph that are not its running text (they are emitted after it). */
const FLOATS = new Set(['fig', 'table-wrap', 'disp-formula', 'list', 'boxed-text', 'supplementary-material']);

function caption(el: XmlElement): string {
  const label = textOf(child(el, 'label'));
  const text = textOf(child(el, 'caption'));
  return [label, text].filter(Boolean).join(' ');
}

/** Writes the block-level content of `el` (a sec, body, abstract, ack, app…) at heading `level`. */
function writeBlocks(b: DocumentBuilder, el: XmlElement, level: number, kind: 'body' | 'abstract'): void {
  for (const c of children(el)) {
    switch (c.name) {
      case 'sec':
      case 'app':
      case 'boxed-text': {
        const title = textOf(child(c, 'title')) || textOf(child(c, 'label'));
        if (title)
          b.heading([textOf(child(c, 'label')), textOf(child(c, 'title'))].filter(Boolean).join(' '), level);
        writeBlocks(b, c, title ? level + 1 : level, kind);
        break;
      }
      case 'p':
        b.paragraph(textOf(c, FLOATS), kind);
        writeBlocks(b, c, level, kind);
        break;
      case 'fig':
      case 'table-wrap':
      case 'supplementary-material':
        b.paragraph(caption(c), 'caption');
        for (const fn of findAll(c, (e) => e.name === 'fn')) b.paragraph(textOf(fn), 'footnote');
        break;
      case 'list':
        for (const item of children(c, 'list-item')) writeBlocks(b, item, level, kind);
        break;
      case 'def-list':
        for (const item of children(c, 'def-item')) b.paragraph(textOf(item), kind);
        break;
      case 'fn-group':
        for (const fn of children(c, 'fn')) b.paragraph(textOf(fn), 'footnote');
        break;
      default:
        break;
    }
  }
}

function meta(front: XmlElement | undefined, file: string): DocumentMeta {
  const articleMeta = child(front, 'article-meta');
  const out: DocumentMeta = { file };
  const doi = children(articleMeta, 'article-id').find((e) => e.attrs['pub-id-type'] === 'doi');
  if (doi) out.doi = textOf(doi);
  const licence = find(articleMeta, (e) => e.name === 'license');
  const name = licence && licenceName(licence.attrs.href, textOf(licence));
  if (name) out.licence = name;
  const year = find(articleMeta, (e) => e.name === 'pub-date');
  const y = Number(textOf(child(year, 'year')));
  if (Number.isInteger(y) && y > 0) out.year = y;
  const authors = findAll(articleMeta, (e) => e.name === 'contrib' && e.attrs['contrib-type'] === 'author')
    .map((c) => child(c, 'name'))
    .filter((n): n is XmlElement => n !== undefined)
    .map((n) => [textOf(child(n, 'given-names')), textOf(child(n, 'surname'))].filter(Boolean).join(' '));
  if (authors.length > 0) out.authors = authors;
  return out;
}

/** A PubMed Central / JATS article (`.nxml`) → Document with its section tree. */
export function jatsToDocument(xml: string, ctx: IngestContext): Document {
  const root = requireRoot(parseXml(xml, ctx.file), ['article'], 'JATS', ctx.file);
  const front = child(root, 'front');
  const articleMeta = child(front, 'article-meta');
  const title = textOf(find(articleMeta, (e) => e.name === 'article-title'));
  const b = new DocumentBuilder();
  if (title) b.paragraph(title, 'title');
  const abstract =
    children(articleMeta, 'abstract').find((a) => !a.attrs['abstract-type']) ??
    child(articleMeta, 'abstract');
  const m = meta(front, ctx.file);
  if (abstract) {
    b.heading('Abstract', 1);
    writeBlocks(b, abstract, 2, 'abstract');
    m.abstract = textOf(abstract, new Set(['title']));
  }
  const body = child(root, 'body');
  if (body) writeBlocks(b, body, 1, 'body');
  const back = child(root, 'back');
  for (const c of children(back)) {
    if (c.name === 'ack') {
      b.heading(textOf(child(c, 'title')) || 'Acknowledgements', 1);
      writeBlocks(b, c, 2, 'body');
    } else if (c.name === 'app-group') {
      writeBlocks(b, c, 1, 'body');
    } else if (c.name === 'fn-group') {
      writeBlocks(b, { ...c, children: [c] }, 1, 'body');
    } else if (c.name === 'ref-list') {
      b.heading(textOf(child(c, 'title')) || 'References', 1);
      for (const ref of children(c, 'ref')) b.paragraph(textOf(ref), 'reference');
    } else if (c.name === 'sec') {
      writeBlocks(b, { ...c, children: [c] }, 1, 'body');
    }
  }
  return b.build({ id: ctx.id, title, source: 'jats', meta: m });
}
