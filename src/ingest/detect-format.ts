import { basename, extname } from 'node:path';

export type IngestFormat = 'pdf' | 'jats' | 'tei' | 'markdown' | 'text' | 'qasper' | 's2orc' | 'json';

/** File name endings that belong together (`x.tei.xml` has the stem `x`). */
const COMPOUND_SUFFIXES = ['.tei.xml', '.grobid.tei.xml', '.s2orc.json', '.qasper.json'];

/** The document id a file gets: its name without the (compound) extension. */
export function fileStem(file: string): string {
  const name = basename(file);
  const lower = name.toLowerCase();
  const compound = COMPOUND_SUFFIXES.filter((s) => lower.endsWith(s)).sort((a, b) => b.length - a.length)[0];
  if (compound && name.length > compound.length) return name.slice(0, -compound.length);
  const ext = extname(name);
  return ext && name.length > ext.length ? name.slice(0, -ext.length) : name;
}

/** The extensions `citegeist ingest` picks up when given a folder. */
export const INGESTIBLE_EXTENSIONS = new Set(['.pdf', '.nxml', '.xml', '.md', '.markdown', '.txt', '.json']);

/**
 * The format of a file, from its extension and its first bytes: `%PDF-` is a PDF whatever its
 * name; XML is TEI when its root is `<TEI`, else JATS when it has `<article`; JSON is sniffed
 * further by the reader (`json`); other text is Markdown when it has `#` headings.
 * Returns null for what is not one of the supported formats.
 */
export function detectFormat(file: string, head: Uint8Array): IngestFormat | null {
  const ext = extname(file).toLowerCase();
  const start = new TextDecoder('utf-8', { fatal: false })
    .decode(head.subarray(0, 4096))
    .replace(/^\uFEFF/, '');
  const trimmed = start.trimStart();
  if (ext === '.pdf' || start.startsWith('%PDF-')) return 'pdf';
  if (ext === '.nxml') return 'jats';
  if (ext === '.xml' || trimmed.startsWith('<')) {
    if (/<TEI[\s>]/.test(start)) return 'tei';
    if (/<article[\s>]|JATS|NLM\/\/DTD/.test(start)) return 'jats';
    return ext === '.xml' ? 'jats' : null;
  }
  if (ext === '.json' || trimmed.startsWith('{') || trimmed.startsWith('[')) return 'json';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (head.includes(0)) return null;
  if (ext === '.txt' || ext === '' || ext === '.text') return 'text';
  return null;
}
