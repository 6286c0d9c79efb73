import { CitegeistError, type Document, quoteValue } from '../core/index.js';
import { decodeUtf8, readInputBytes, tooDeepError } from '../io/index.js';
import { detectFormat, fileStem } from './detect-format.js';
import { jatsToDocument } from './formats/jats.js';
import { isQasper, isS2orc, qasperToDocuments, s2orcToDocuments } from './formats/json-papers.js';
import { markdownToDocument } from './formats/markdown.js';
import { teiToDocument } from './formats/tei.js';
import type { IngestContext } from './ingest-context.js';
import { pdfToDocument } from './pdf/pdf-document.js';

/**
 * The version of the extractors. It is part of a stored document's content hash, so a new version
 * re-ingests files whose bytes did not change.
 */
export const EXTRACTOR_VERSION = 'ingest-4';

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CitegeistError(
      'INVALID_JSON',
      `${file} is not valid JSON: ${message}.`,
      'The file is damaged or truncated: export or download it again.',
      { cause: error },
    );
  }
}

function jsonDocuments(text: string, ctx: IngestContext): Document[] {
  const value = parseJson(text, ctx.file);
  if (isS2orc(value)) return s2orcToDocuments(value, ctx);
  if (isQasper(value)) return qasperToDocuments(value as Record<string, unknown>, ctx);
  const keys = value && typeof value === 'object' ? Object.keys(value).slice(0, 5) : [];
  throw new CitegeistError(
    'INGEST_UNSUPPORTED_FORMAT',
    `${ctx.file} is JSON but neither QASPER (papers with "full_text") nor S2ORC ("pdf_parse.body_text"); its keys: ${quoteValue(keys)}.`,
    'Ingest QASPER native JSON, S2ORC JSON, or convert the papers to Markdown.',
  );
}

/** Reads the bytes of one file (any supported format) into its document(s). */
export async function readDocumentBytes(bytes: Uint8Array, ctx: IngestContext): Promise<Document[]> {
  if (bytes.length === 0) {
    throw new CitegeistError(
      'EMPTY_FILE',
      `${ctx.file} is empty (0 bytes).`,
      'Check the file was copied or downloaded completely.',
    );
  }
  const format = detectFormat(ctx.file, bytes);
  if (format === null) {
    throw new CitegeistError(
      'INGEST_UNSUPPORTED_FORMAT',
      `${ctx.file} is not a supported format (PDF, JATS .nxml, TEI .tei.xml, Markdown, text, QASPER or S2ORC JSON).`,
      'Convert it to one of those formats, or leave it out.',
    );
  }
  if (format === 'pdf') return [await pdfToDocument(bytes, ctx)];
  const text = decodeUtf8(bytes, ctx.file);
  let docs: Document[];
  try {
    if (format === 'jats') docs = [jatsToDocument(text, ctx)];
    else if (format === 'tei') docs = [teiToDocument(text, ctx)];
    else if (format === 'json') docs = jsonDocuments(text, ctx);
    else docs = [markdownToDocument(text, ctx)];
  } catch (error) {
    throw tooDeepError(error, ctx.file);
  }
  for (const doc of docs) {
    if (doc.text.trim() === '') {
      throw new CitegeistError(
        'INGEST_NO_TEXT',
        `${ctx.file} holds no text (document ${quoteValue(doc.id)}).`,
        'Check the file is the full paper.',
      );
    }
  }
  return docs;
}

/** Reads one file into its document(s); the id defaults to the file's stem. */
export async function readDocumentFile(file: string, id = fileStem(file)): Promise<Document[]> {
  const bytes = new Uint8Array(readInputBytes(file, { what: 'paper' }));
  return readDocumentBytes(bytes, { file, id });
}
