/** ingest/: every supported format → Document (PDF, JATS, TEI, Markdown, text, QASPER, S2ORC). */
export { detectFormat, fileStem, INGESTIBLE_EXTENSIONS, type IngestFormat } from './detect-format.js';
export { DocumentBuilder } from './document-builder.js';
export type { IngestContext } from './ingest-context.js';
export { findMarkers, withMarkers } from './markers.js';
export { ParsePool } from './parse-protocol.js';
export { DEFAULT_MAX_PDF_PAGES, rawPdfText } from './pdf/pdf-engine.js';
export { inspectPdfPage, type PageInspection, renderPageInspection } from './pdf/pdf-inspect.js';
export { EXTRACTOR_VERSION, readDocumentBytes, readDocumentFile } from './read-document.js';
