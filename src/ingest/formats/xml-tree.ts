import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CitegeistError } from '../../core/index.js';

/** An XML element with its attributes and children in document order (text as strings). */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

type RawNode = Record<string, unknown>;

function convert(raw: RawNode[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of raw) {
    if ('#text' in node) {
      out.push(String(node['#text']));
      continue;
    }
    const name = Object.keys(node).find((k) => k !== ':@');
    if (!name || name.startsWith('?') || name.startsWith('!')) continue;
    const attrs = (node[':@'] ?? {}) as Record<string, unknown>;
    out.push({
      // Namespace prefixes are dropped: `xlink:href` → `href`, `tei:p` → `p`.
      name: name.replace(/^[\w-]+:/, ''),
      attrs: Object.fromEntries(
        Object.entries(attrs).map(([k, v]) => [k.replace(/^[\w-]+:/, ''), String(v)]),
      ),
      children: convert((node[name] ?? []) as RawNode[]),
    });
  }
  return out;
}

/**
 * Parses XML into an ordered tree, or throws INVALID_XML naming the file (line and column when
 * known). A DOCTYPE that declares entities is refused: papers need none, and expanding them is how
 * an "entity bomb" (a billion laughs) or an external-entity read (XXE) works.
 */
export function parseXml(text: string, file: string): XmlElement {
  const declared = /<!DOCTYPE[^[>]*\[[\s\S]*?<!ENTITY\s+%?\s*([\w.:-]+)/i.exec(text);
  if (declared) {
    throw new CitegeistError(
      'INVALID_XML',
      `${file} declares its own XML entities in its DOCTYPE (e.g. "${declared[1]}"); citegeist does not expand declared entities (an entity bomb or external-entity read works through them).`,
      'Give the paper as exported by its publisher or GROBID (with no <!ENTITY> declarations).',
    );
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new CitegeistError(
      'INVALID_XML',
      `${file} line ${line}, column ${col} is not well-formed XML: ${msg}`,
      'The file is damaged or truncated: export or download it again.',
    );
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
  });
  let parsed: RawNode[];
  try {
    parsed = parser.parse(text) as RawNode[];
  } catch (error) {
    // The validator lets a few defects through to the parser (an unclosed DOCTYPE or processing
    // instruction); they are the same damage, so the same error.
    const message = error instanceof Error ? error.message : String(error);
    if (/nested tags exceeded/i.test(message)) throw error; // INPUT_TOO_DEEP, decided by the caller
    throw new CitegeistError(
      'INVALID_XML',
      `${file} is not well-formed XML: ${message}`,
      'The file is damaged or truncated: export or download it again.',
      { cause: error },
    );
  }
  const root = convert(parsed).find((n): n is XmlElement => typeof n !== 'string');
  if (!root) {
    throw new CitegeistError(
      'INVALID_XML',
      `${file} has no XML root element.`,
      'Check that the file is XML.',
    );
  }
  return root;
}

/**
 * The root of a paper in one XML format: refused as INGEST_UNSUPPORTED_FORMAT when the document is
 * another kind of XML (an HTML page, an RSS feed), which would otherwise be stored as a paper.
 */
export function requireRoot(
  root: XmlElement,
  names: readonly string[],
  format: string,
  file: string,
): XmlElement {
  if (names.includes(root.name)) return root;
  throw new CitegeistError(
    'INGEST_UNSUPPORTED_FORMAT',
    `${file} is XML whose root element is <${root.name}>, not a ${format} paper (<${names.join('> or <')}>).`,
    'Give the paper as JATS (.nxml, root <article>) or GROBID TEI (.tei.xml, root <TEI>); convert other formats (HTML: save as text or Markdown).',
  );
}

export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && n !== null;

/** Child elements named `name` (any name when omitted). */
export function children(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

export const child = (el: XmlElement | undefined, name: string) => children(el, name)[0];

/** The first descendant (depth-first) matching `pred`. */
export function find(el: XmlElement | undefined, pred: (e: XmlElement) => boolean): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of children(el)) {
    if (pred(c)) return c;
    const hit = find(c, pred);
    if (hit) return hit;
  }
  return undefined;
}

/** Every descendant matching `pred`, in document order. */
export function findAll(
  el: XmlElement | undefined,
  pred: (e: XmlElement) => boolean,
  out: XmlElement[] = [],
) {
  if (!el) return out;
  for (const c of children(el)) {
    if (pred(c)) out.push(c);
    findAll(c, pred, out);
  }
  return out;
}

/** The text of a node with whitespace collapsed, skipping elements named in `skip`. */
export function textOf(node: XmlNode | undefined, skip: ReadonlySet<string> = new Set()): string {
  const parts: string[] = [];
  const walk = (n: XmlNode) => {
    if (typeof n === 'string') parts.push(n);
    else if (!skip.has(n.name)) for (const c of n.children) walk(c);
  };
  if (node !== undefined) walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
