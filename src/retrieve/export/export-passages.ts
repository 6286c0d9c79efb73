import { CitegeistError, quoteValue } from '../../core/index.js';
import type { Passage } from '../passages/index.js';

/** The interchange formats `citegeist export passages` writes. */
export const EXPORT_FORMATS = ['jsonl', 'pyserini', 'opensearch-bulk'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function parseExportFormat(value: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `--format ${quoteValue(value)} is not an export format.`,
      `Use one of ${EXPORT_FORMATS.join(', ')}.`,
    );
  }
  return value as ExportFormat;
}

/** The section a passage is in, outermost heading first (" > " between levels), or null. */
function sectionOf(p: Passage): string | null {
  return p.sectionPath.length ? p.sectionPath.join(' > ') : null;
}

/**
 * The lines that carry one passage in `format` (each ends with a newline), the same id and text
 * as citegeist retrieves, so a run from another engine names passages citegeist can resolve:
 * - `jsonl`: {id, paper_id, title, section, page, text};
 * - `pyserini`: Pyserini's JsonCollection ({id, contents}, the other fields beside it), for
 *   `python -m pyserini.index.lucene --collection JsonCollection`;
 * - `opensearch-bulk`: an action line and a document line for the `_bulk` API of OpenSearch or
 *   Elasticsearch (`_id` = the passage id), into `index`.
 */
export function passageLines(p: Passage, format: ExportFormat, index = 'citegeist-passages'): string {
  const fields = { paper_id: p.docId, title: p.title, section: sectionOf(p), page: p.page };
  switch (format) {
    case 'jsonl':
      return `${JSON.stringify({ id: p.id, ...fields, text: p.text })}\n`;
    case 'pyserini':
      return `${JSON.stringify({ id: p.id, contents: p.text, ...fields })}\n`;
    case 'opensearch-bulk':
      return `${JSON.stringify({ index: { _index: index, _id: p.id } })}\n${JSON.stringify({ ...fields, text: p.text })}\n`;
  }
}

/** Writes every passage in `format` through `write` (streamed: one passage at a time); returns the count. */
export function exportPassages(
  passages: Iterable<Passage>,
  format: ExportFormat,
  write: (chunk: string) => void,
  options: { index?: string } = {},
): number {
  let n = 0;
  let buf = '';
  for (const p of passages) {
    buf += passageLines(p, format, options.index);
    n++;
    if (buf.length > 1 << 20) {
      write(buf);
      buf = '';
    }
  }
  if (buf) write(buf);
  return n;
}
